package dev.omcp.adapters.http.mcp;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The id of a JSON-RPC request the transport refuses before the dispatcher sees it, so the error
 * frame can name the request it refuses; for a batch, the id of each of its requests. Read with a
 * streaming parser that keeps nothing but the ids and methods: the top-level members of each
 * message are walked once and nested values skipped, no tree is built.
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
     * One message of a batch, as a refusal of the batch answers it.
     *
     * @param head its id and method, read as {@link #head} reads a message sent alone
     * @param answered whether JSON-RPC answers it: true for a request and for an element that is no
     *     valid message (its error then has the id {@link JsonValue#NULL}); false for a notification
     *     and a client's response (see {@link #answersNothing})
     */
    record Element(Head head, boolean answered) {}

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
        try (JsonParser parser = Jsonp.provider().createParser(new StringReader(message))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                return Head.UNREADABLE;
            }
            return Members.read(parser).head();
        } catch (RuntimeException e) {
            // not JSON (or not JSON this reader takes): the dispatcher would say so; here the id is unknown
            return Head.UNREADABLE;
        }
    }

    /**
     * The messages of {@code message} when it is one JSON array holding at least one element, in
     * the order sent; empty for anything else: a message sent alone, an empty array (JSON-RPC 2.0
     * answers it with one error, not an array) and text that is not one JSON value (one parse error).
     */
    static Optional<List<Element>> batch(String message) {
        try (JsonParser parser = Jsonp.provider().createParser(new StringReader(message))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_ARRAY) {
                return Optional.empty();
            }
            List<Element> elements = new ArrayList<>();
            while (true) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.END_ARRAY) {
                    break;
                }
                if (event == JsonParser.Event.START_OBJECT) {
                    Members members = Members.read(parser);
                    elements.add(new Element(members.head(), !members.answersNothing()));
                } else {
                    // JSON-RPC 2.0 section 6: an element that is no object is an invalid request, answered with a null id
                    skip(parser, event);
                    elements.add(new Element(Head.UNREADABLE, true));
                }
            }
            // more after the array makes the text no single JSON value: the dispatcher answers one parse error
            return elements.isEmpty() || parser.hasNext() ? Optional.empty() : Optional.of(List.copyOf(elements));
        } catch (RuntimeException e) {
            // not JSON: the dispatcher answers it with one parse error, not an array
            return Optional.empty();
        }
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
                return Members.read(parser).answersNothing();
            }
        } catch (RuntimeException e) {
            // not JSON: the dispatcher answers it with a parse error, so it is no message left unanswered
            return false;
        }
        // JSON-RPC 2.0: a batch of only notifications (and responses) gets no response at all
        return batch(message).filter(elements -> elements.stream().noneMatch(Element::answered)).isPresent();
    }

    /**
     * The top-level members of one JSON object that tell what kind of message it is.
     *
     * @param id the {@code id} as {@link #idValue} reads it; {@code null} when there is none
     * @param twoIds whether {@code id} came twice: which one the client meant is not ours to pick
     * @param method the {@code method} when it is a string; {@code null} when absent or of another type
     */
    private record Members(JsonValue id, boolean twoIds, String method, boolean hasMethod, boolean error, boolean result) {
        /** Reads one object, its start already read, to its end. */
        static Members read(JsonParser parser) {
            JsonValue id = null;
            boolean twoIds = false;
            String method = null;
            boolean hasMethod = false;
            boolean error = false;
            boolean result = false;
            while (true) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.END_OBJECT) {
                    break;
                }
                String key = parser.getString();
                JsonParser.Event value = parser.next();
                switch (key) {
                    case "id" -> {
                        twoIds |= id != null;
                        id = idValue(parser, value);
                    }
                    case "method" -> {
                        hasMethod = true;
                        method = value == JsonParser.Event.VALUE_STRING ? parser.getString() : null;
                    }
                    case "error" -> error = true;
                    case "result" -> result = true;
                    default -> { }
                }
                skip(parser, value);
            }
            return new Members(id, twoIds, method, hasMethod, error, result);
        }

        /** What a refusal names: the id of a request with a string method, else {@code NULL}; the method or empty. */
        Head head() {
            boolean request = method != null && id != null && !twoIds;
            return new Head(request ? id : JsonValue.NULL, method == null ? "" : method);
        }

        /** Whether the object is a notification or a client's response (see {@link RequestId#answersNothing}). */
        boolean answersNothing() {
            boolean hasId = id != null;
            return hasId != hasMethod || (!hasId && !hasMethod && error && !result);
        }
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
