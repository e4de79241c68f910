package dev.omcp.core.mcp;

import dev.omcp.sdk.json.CompactJson;
import dev.omcp.ports.mcp.Refusal;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Objects;

/**
 * What a method handler or an interceptor decided about one message, before serialization.
 */
public sealed interface McpResult {

    /**
     * A successful request.
     *
     * @param result the {@code result} member
     * @param serialized {@code result} already serialized, or {@code null}; handlers that return the
     *     same immutable result many times (for example {@code tools/list}) pass it to skip
     *     serializing again. Whoever replaces {@code result} must drop it.
     */
    record Success(JsonObject result, String serialized) implements McpResult {
        public Success {
            Objects.requireNonNull(result, "result");
        }

        public static Success of(JsonObject result) {
            return new Success(result, null);
        }

        /** The serialized {@code result}. */
        public String json() {
            return serialized != null ? serialized : CompactJson.of(result);
        }
    }

    /** A JSON-RPC error response. {@code data} may be {@code null}. */
    record Failure(int code, String message, JsonValue data) implements McpResult {
        public Failure {
            Objects.requireNonNull(message, "message");
        }

        public static Failure of(int code, String message) {
            return new Failure(code, message, null);
        }
    }

    /** A notification was handled; nothing is sent back. */
    record Done() implements McpResult {}

    /** The message is refused at the transport level (for example a rate limit). */
    record Refused(Refusal refusal, JsonObject body) implements McpResult {
        public Refused {
            Objects.requireNonNull(refusal, "refusal");
            Objects.requireNonNull(body, "body");
        }
    }
}
