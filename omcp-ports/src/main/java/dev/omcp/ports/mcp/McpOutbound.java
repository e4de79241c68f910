package dev.omcp.ports.mcp;

import jakarta.json.JsonObject;

/**
 * The server-to-client side of the stream a request arrived on.
 *
 * <p>While a request is handled the gateway may send notifications (progress, log messages) and
 * server requests (sampling, elicitation) to the client before the response. A Streamable HTTP
 * transport turns its response into an SSE stream on the first {@link #send}; a WebSocket
 * transport writes a frame. Implementations must be safe to call from several threads.
 */
public interface McpOutbound {

    /**
     * Sends one JSON-RPC notification or request to the client.
     *
     * @return {@code false} when the stream is closed and the message was dropped
     */
    boolean send(JsonObject message);

    /**
     * Sets a header on the transport's response, for example {@code X-RateLimit-Remaining}. Does
     * nothing when the transport has no headers or the response has already started.
     */
    default void setHeader(String name, String value) {}

    /** An outbound for calls that have no client stream; every message is dropped. */
    static McpOutbound discarding() {
        return message -> false;
    }
}
