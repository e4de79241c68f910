package dev.omcp.ports.mcp;

import jakarta.json.JsonObject;
import java.util.Objects;
import java.util.Optional;

/**
 * What a transport should answer after the gateway handled one inbound message.
 *
 * <p>Every variant names the JSON-RPC {@code method} (empty string when the message had none, for
 * example a malformed one, a client response or a batch) so transports can label their metrics. Headers
 * the response must bear (rate-limit headers, for example) were already set through
 * {@link McpOutbound#setHeader}.
 */
public sealed interface McpReply {

    /** The JSON-RPC method of the inbound message; empty when unknown. */
    String method();

    /**
     * A JSON-RPC response (a {@code result} or an {@code error}) to send back; for a batch, the
     * array of the responses to the requests in it.
     *
     * @param json the serialized JSON-RPC response message, or array of them
     * @param error whether the message is a JSON-RPC error (for a batch: whether every response in
     *     it is one)
     * @param newSessionId the id of the session this message opened ({@code initialize} only)
     */
    record Response(String method, String json, boolean error, Optional<String> newSessionId)
            implements McpReply {
        public Response {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(json, "json");
            Objects.requireNonNull(newSessionId, "newSessionId");
        }
    }

    /**
     * A notification or a client response (or a batch of only those) was accepted; there is nothing
     * to answer.
     */
    record Accepted(String method) implements McpReply {
        public Accepted {
            Objects.requireNonNull(method, "method");
        }
    }

    /**
     * The message was refused at the transport level.
     *
     * @param body a JSON body describing the refusal (a JSON-RPC error object where one applies)
     */
    record Refused(String method, Refusal refusal, JsonObject body)
            implements McpReply {
        public Refused {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(refusal, "refusal");
            Objects.requireNonNull(body, "body");
        }
    }
}
