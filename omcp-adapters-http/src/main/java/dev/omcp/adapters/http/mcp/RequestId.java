package dev.omcp.adapters.http.mcp;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import java.io.StringReader;
import java.math.BigDecimal;

/**
 * The id of a JSON-RPC request the transport refuses before the dispatcher sees it, so the error
 * frame can name the request it refuses. Read with a streaming parser that keeps nothing but the
 * id: the top-level members are walked once and nested values skipped, no tree is built.
 */
final class RequestId {
    private RequestId() {}

    /**
     * What a refusal of {@code message} names: its id and its method.
     *
     * @param id the request's id, or {@link JsonValue#NULL} when none can be read (see {@link #of})
     * @param method the top-level string {@code method}, or empty (a batch, text that is not JSON)
     */
    record Head(JsonValue id, String method) {
        private static final Head UNREADABLE = new Head(JsonValue.NULL, "");
    }

    /**
     * The {@code id} of {@code message} when it is a JSON object with a string {@code method} and a
     * string or integer {@code id}; {@link JsonValue#NULL} for anything else (a notification, a
     * batch, a fractional id, text that is not JSON), as JSON-RPC asks when the id cannot be read.
     */
    static JsonValue of(String message) {
        return head(message).id();
    }

    /** The id (as {@link #of} reads it) and the method of {@code message}, read in one pass. */
    static Head head(String message) {
        JsonValue id = null;
        String method = null;
        try (JsonParser parser = Jsonp.provider().createParser(new StringReader(message))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                return Head.UNREADABLE;
            }
            boolean twoIds = false;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.END_OBJECT) {
                    break;
                }
                String key = parser.getString();
                JsonParser.Event value = parser.next();
                switch (key) {
                    case "id" -> {
                        // two ids: which one the client meant is not ours to pick
                        twoIds |= id != null;
                        id = idValue(parser, value);
                    }
                    case "method" -> method = value == JsonParser.Event.VALUE_STRING ? parser.getString() : null;
                    default -> { }
                }
                skip(parser, value);
            }
            if (twoIds) {
                id = JsonValue.NULL;
            }
        } catch (RuntimeException e) {
            // not JSON (or not JSON this reader takes): the dispatcher would say so; here the id is unknown
            return Head.UNREADABLE;
        }
        return new Head(method != null && id != null ? id : JsonValue.NULL, method == null ? "" : method);
    }

    /**
     * Whether {@code message} is one the server never answers: a JSON object that is a notification
     * (a {@code method} and no {@code id}) or a client's response (an {@code id} and no
     * {@code method}, or an {@code error} alone, which MCP lets go without an id when the client could
     * not read the request's), or a batch of only such objects. Anything else (a request, a batch
     * holding one, an empty batch, text that is not JSON) is false.
     */
    static boolean answersNothing(String message) {
        try (JsonParser parser = Jsonp.provider().createParser(new StringReader(message))) {
            if (!parser.hasNext()) {
                return false;
            }
            JsonParser.Event first = parser.next();
            if (first == JsonParser.Event.START_OBJECT) {
                return objectAnswersNothing(parser);
            }
            if (first != JsonParser.Event.START_ARRAY) {
                return false;
            }
            // JSON-RPC 2.0: a batch of only notifications (and responses) gets no response at all
            boolean any = false;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.END_ARRAY) {
                    return any;
                }
                if (event != JsonParser.Event.START_OBJECT || !objectAnswersNothing(parser)) {
                    return false;
                }
                any = true;
            }
            return false;
        } catch (RuntimeException e) {
            // not JSON: the dispatcher answers it with a parse error, so it is no message left unanswered
            return false;
        }
    }

    /** Reads one object, its start already read, to its end: whether it is a notification or a client's response. */
    private static boolean objectAnswersNothing(JsonParser parser) {
        boolean id = false;
        boolean method = false;
        boolean error = false;
        boolean result = false;
        while (parser.hasNext()) {
            JsonParser.Event event = parser.next();
            if (event == JsonParser.Event.END_OBJECT) {
                break;
            }
            String key = parser.getString();
            JsonParser.Event value = parser.next();
            id |= key.equals("id");
            method |= key.equals("method");
            error |= key.equals("error");
            result |= key.equals("result");
            skip(parser, value);
        }
        return id != method || (!id && !method && error && !result);
    }

    /** A string id, or a number whose value is an integer (as the dispatcher takes it); else {@code NULL}. */
    private static JsonValue idValue(JsonParser parser, JsonParser.Event value) {
        if (value == JsonParser.Event.VALUE_STRING) {
            return Jsonp.value(parser.getString());
        }
        if (value == JsonParser.Event.VALUE_NUMBER) {
            BigDecimal number = parser.getBigDecimal();
            if (number.signum() == 0 || number.stripTrailingZeros().scale() <= 0) {
                return Jsonp.value(number);
            }
        }
        return JsonValue.NULL;
    }

    private static void skip(JsonParser parser, JsonParser.Event value) {
        if (value == JsonParser.Event.START_OBJECT) {
            parser.skipObject();
        } else if (value == JsonParser.Event.START_ARRAY) {
            parser.skipArray();
        }
    }
}
