package dev.omcp.ports.mcp;

import dev.omcp.ports.identity.Principal;
import java.util.Optional;

/**
 * Driving port: the MCP server behind every transport.
 *
 * <p>A transport authenticates the caller, bounds the message size, and hands over one raw
 * message at a time. The endpoint parses it, enforces the session rules, runs the interceptor chain
 * and the method handler, and says what to answer.
 */
public interface McpEndpoint {

    /**
     * Handles one inbound message: a JSON-RPC message or, in a session of MCP 2025-03-26, a batch
     * of them (answered as one). Whatever limits a transport applies per body (a rate, a size)
     * therefore counts a batch once.
     *
     * @param inbound the message and who sent it
     * @param outbound the stream for notifications and server requests sent while handling it
     * @return what to answer; never {@code null}
     */
    McpReply handle(McpInbound inbound, McpOutbound outbound);

    /**
     * The refusal {@link #handle} answers every batch sent in this session with, whatever the batch
     * holds: no session yet, an unknown one, or one whose negotiated revision takes no batches (MCP
     * 2025-06-18 removed JSON-RPC batching). A transport that refuses a batch itself, before it
     * reaches {@link #handle} (a shutdown, a bound of requests in flight), answers with this refusal
     * when there is one, so the client is not asked to send again a batch its session never takes.
     * Judged as for a message without an {@code MCP-Protocol-Version} header, as on a WebSocket.
     *
     * @param sessionId the session the batch was sent in; empty when none was opened
     * @param principal who sent the batch (a session is only found for its own credential)
     * @return the refusal; empty when the session takes batches. The default answers empty, so an
     *     endpoint written before this method keeps working; the transport then refuses each request
     *     of such a batch as it would in a session that takes batches
     */
    default Optional<McpReply.Refused> batchRefusal(Optional<String> sessionId, Principal principal) {
        return Optional.empty();
    }

    /**
     * Checks that a session exists, has not expired and belongs to {@code principal}; refreshes its
     * idle timer when it does.
     */
    SessionStatus checkSession(String sessionId, Principal principal);

    /**
     * Ends a session ({@code DELETE /mcp}). Only the credential that opened it may end it.
     *
     * @return {@link SessionStatus#ACTIVE} when the session existed and is now gone
     */
    SessionStatus endSession(String sessionId, Principal principal);

    /**
     * Attaches a standalone stream (an SSE {@code GET /mcp} or a WebSocket) to a session, so
     * server-initiated notifications such as {@code notifications/tools/list_changed} reach the
     * client.
     *
     * @return a handle that detaches the stream when closed
     */
    AutoCloseable attachStream(String sessionId, McpOutbound stream);

    /**
     * Why an {@code MCP-Protocol-Version} header cannot be served, for the requests that carry no
     * JSON-RPC message ({@code GET} and {@code DELETE /mcp}): the transport answers 400 with it, as
     * {@link #handle} does for a message.
     *
     * @return the refusal for a revision this endpoint does not speak; empty when it does
     */
    Optional<String> unsupportedProtocolVersion(String header);

    /** Whether a session id is currently valid for the caller. */
    enum SessionStatus {
        ACTIVE,
        NOT_FOUND
    }
}
