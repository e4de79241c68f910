package dev.omcp.core.mcp;

import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.Refusal;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A JSON-RPC 2.0 batch (section 6) as MCP 2025-03-26 allows it: an array of requests, notifications
 * and client responses in one body, each handled as if it came alone, answered with one array of the
 * responses to the requests in it.
 *
 * <p>This class holds the rules about the array itself; which sessions may send one is the
 * dispatcher's business, as every other session rule is.
 */
final class JsonRpcBatch {
    /**
     * The most messages one batch may hold. The elements run one after another on the thread of the
     * body that carried them, so the bound caps how long one body may occupy the gateway; 32 is also
     * what one WebSocket may have in flight.
     */
    static final int MAX_MESSAGES = 32;

    private JsonRpcBatch() {}

    /**
     * Why nothing in {@code batch} may run, judged on the array alone: empty, too long, or carrying
     * {@code initialize}.
     */
    static Optional<McpReply.Refused> refusal(JsonArray batch) {
        if (batch.isEmpty()) {
            // JSON-RPC 2.0 section 6: an empty array is one Invalid Request, answered with one error
            return Optional.of(refused(Refusal.MALFORMED, "Invalid Request: the batch is empty"));
        }
        if (batch.size() > MAX_MESSAGES) {
            return Optional.of(refused(Refusal.BATCH_NOT_SUPPORTED, "Invalid Request: a batch may hold at most " + MAX_MESSAGES
                    + " messages, this one holds " + batch.size() + "; nothing in it ran"));
        }
        for (JsonValue element : batch) {
            if (element instanceof JsonObject message && message.get("method") instanceof JsonString method
                    && "initialize".equals(method.getString())) {
                // MCP 2025-03-26 lifecycle: initialize MUST NOT be part of a batch
                return Optional.of(refused(Refusal.MALFORMED,
                        "Invalid Request: initialize must not be part of a JSON-RPC batch; send it alone. Nothing in the batch ran"));
            }
        }
        return Optional.empty();
    }

    private static McpReply.Refused refused(Refusal refusal, String message) {
        return new McpReply.Refused("", refusal, JsonRpc.error(JsonValue.NULL, JsonRpc.INVALID_REQUEST, message));
    }

    /** Collects what each element of a batch got into the one answer of the batch. */
    static final class Answer {
        private final List<String> responses = new ArrayList<>();
        private int errors;
        private McpReply.Refused unanswerableRefusal;

        /** Adds what {@code element} got when it was handled as if it came alone. */
        void add(JsonValue element, McpReply reply) {
            switch (reply) {
                case McpReply.Response response -> {
                    responses.add(response.json());
                    errors += response.error() ? 1 : 0;
                }
                case McpReply.Accepted accepted -> { }
                case McpReply.Refused refused -> addRefused(element, refused);
            }
        }

        private void addRefused(JsonValue element, McpReply.Refused refused) {
            Optional<JsonValue> requestId = requestId(element);
            if (requestId.isPresent()) {
                // A batch has one HTTP status for all its elements, so a request refused at the
                // transport level (a policy, a session that ended mid-batch) is answered in-band.
                responses.add(asErrorResponse(requestId.get(), refused).toString());
                errors++;
            } else if (refused.refusal() == Refusal.MALFORMED) {
                // JSON-RPC 2.0 section 6: an element that is no valid message gets its own error
                responses.add(refused.body().toString());
                errors++;
            } else if (unanswerableRefusal == null) {
                // A notification or a client response is never answered, not even with an error.
                unanswerableRefusal = refused;
            }
        }

        /**
         * The batch's answer: the array of responses; when there is none, 202 (everything accepted)
         * or, when a notification or client response was refused, that refusal (MCP 2025-03-26: input
         * of only notifications and responses the server cannot accept gets an HTTP error status).
         */
        McpReply reply() {
            if (!responses.isEmpty()) {
                return new McpReply.Response("", "[" + String.join(",", responses) + "]", errors == responses.size(), Optional.empty());
            }
            if (unanswerableRefusal != null) {
                return unanswerableRefusal;
            }
            return new McpReply.Accepted("");
        }

        /** The id of an element that is a request: it has a method and a string or integer id. */
        private static Optional<JsonValue> requestId(JsonValue element) {
            if (element instanceof JsonObject message && message.get("method") instanceof JsonString
                    && JsonRpc.isRequestId(message.get("id"))) {
                return Optional.of(message.get("id"));
            }
            return Optional.empty();
        }

        private static JsonObject asErrorResponse(JsonValue id, McpReply.Refused refused) {
            JsonObject body = refused.body();
            if (body.containsKey("jsonrpc") && body.get("error") instanceof JsonObject) {
                // the dispatcher's own refusals are JSON-RPC errors already, with the element's id
                return body;
            }
            String reason = body.get("error") instanceof JsonString text ? ": " + text.getString() : "";
            return JsonRpc.error(id, JsonRpc.REQUEST_REFUSED,
                    "Request refused (" + refused.refusal().name().toLowerCase(Locale.ROOT).replace('_', '-') + ")" + reason, body);
        }
    }
}
