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
     * The {@code id} of {@code message} when it is a JSON object with a string {@code method} and a
     * string or integer {@code id}; {@link JsonValue#NULL} for anything else (a notification, a
     * batch, a fractional id, text that is not JSON), as JSON-RPC asks when the id cannot be read.
     */
    static JsonValue of(String message) {
        JsonValue id = null;
        boolean method = false;
        try (JsonParser parser = Jsonp.provider().createParser(new StringReader(message))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                return JsonValue.NULL;
            }
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.END_OBJECT) {
                    break;
                }
                String key = parser.getString();
                JsonParser.Event value = parser.next();
                switch (key) {
                    case "id" -> {
                        if (id != null) {
                            return JsonValue.NULL; // two ids: which one the client meant is not ours to pick
                        }
                        id = idValue(parser, value);
                    }
                    case "method" -> method = value == JsonParser.Event.VALUE_STRING;
                    default -> { }
                }
                skip(parser, value);
            }
        } catch (RuntimeException e) {
            // not JSON (or not JSON this reader takes): the dispatcher would say so; here the id is unknown
            return JsonValue.NULL;
        }
        return method && id != null ? id : JsonValue.NULL;
    }

    /**
     * Whether {@code message} is one the server never answers: a JSON object that is a notification
     * (a {@code method} and no {@code id}) or a client's response (an {@code id} and no
     * {@code method}, or an {@code error} alone, which MCP lets go without an id when the client could
     * not read the request's). Anything else (a request, a batch, text that is not JSON) is false.
     */
    static boolean answersNothing(String message) {
        boolean id = false;
        boolean method = false;
        boolean error = false;
        boolean result = false;
        try (JsonParser parser = Jsonp.provider().createParser(new StringReader(message))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                return false;
            }
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
        } catch (RuntimeException e) {
            // not JSON: the dispatcher answers it with a parse error, so it is no message left unanswered
            return false;
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
