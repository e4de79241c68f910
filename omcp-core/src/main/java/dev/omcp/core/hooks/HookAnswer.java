package dev.omcp.core.hooks;

import dev.omcp.sdk.hook.HookResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.Optional;

/**
 * Takes over the payload a hook returned, on the hook's own thread and so within its timeout. The
 * {@code JsonObject} may be of the plugin's making (its own JSON-P provider, or a class of its own):
 * reading it may block, throw or answer differently each time. So it is copied once into the
 * gateway's own immutable values, bounded in size and depth, before the caller sees it.
 */
final class HookAnswer {
    /**
     * Most characters a replacement payload may hold (strings, names and numbers counted as written).
     * Far past any tool result an agent can use, well short of what would strain the heap.
     */
    static final int MAX_PAYLOAD_CHARS = 16 * 1024 * 1024;
    /** Deepest nesting a replacement payload may have: the depth to which the gateway parses client JSON. */
    static final int MAX_PAYLOAD_DEPTH = 1000;

    private HookAnswer() {}

    /** Why a payload could not be taken over: too large or too deep. */
    static final class PayloadRefused extends Exception {
        PayloadRefused(String problem) {
            super(problem, null, false, false);
        }
    }

    /**
     * The hook's result with its payload replaced by a gateway-owned copy.
     *
     * @throws PayloadRefused when the payload is larger or deeper than the bounds
     */
    static HookResult settle(HookResult result) throws PayloadRefused {
        if (result.payload().isEmpty()) {
            return result;
        }
        Copy copy = new Copy();
        JsonObject payload = copy.object(result.payload().get(), 1);
        return new HookResult(result.allow(), Optional.of(payload), result.reason());
    }

    /** One deep copy, counting characters as it goes. */
    private static final class Copy {
        private long chars;

        JsonObject object(JsonObject source, int depth) throws PayloadRefused {
            JsonObjectBuilder builder = Jsonp.provider().createObjectBuilder();
            for (Map.Entry<String, JsonValue> member : source.entrySet()) {
                String name = member.getKey();
                count(name.length() + 3L);
                builder.add(name, value(member.getValue(), depth));
            }
            return builder.build();
        }

        private JsonArray array(JsonArray source, int depth) throws PayloadRefused {
            JsonArrayBuilder builder = Jsonp.provider().createArrayBuilder();
            for (JsonValue element : source) {
                builder.add(value(element, depth));
            }
            return builder.build();
        }

        private JsonValue value(JsonValue value, int depth) throws PayloadRefused {
            count(1);
            return switch (value.getValueType()) {
                case OBJECT -> object((JsonObject) nested(value, depth), depth + 1);
                case ARRAY -> array((JsonArray) nested(value, depth), depth + 1);
                case STRING -> {
                    String text = ((JsonString) value).getString();
                    count(text.length() + 2L);
                    yield Jsonp.provider().createValue(text);
                }
                case NUMBER -> {
                    java.math.BigDecimal number = ((JsonNumber) value).bigDecimalValue();
                    count(number.precision());
                    yield Jsonp.provider().createValue(number);
                }
                case TRUE -> JsonValue.TRUE;
                case FALSE -> JsonValue.FALSE;
                case NULL -> JsonValue.NULL;
            };
        }

        private static JsonValue nested(JsonValue value, int depth) throws PayloadRefused {
            if (depth >= MAX_PAYLOAD_DEPTH) {
                throw new PayloadRefused("returned a payload nested deeper than " + MAX_PAYLOAD_DEPTH + " levels");
            }
            return value;
        }

        private void count(long more) throws PayloadRefused {
            chars += more;
            if (chars > MAX_PAYLOAD_CHARS) {
                throw new PayloadRefused("returned a payload of more than " + MAX_PAYLOAD_CHARS + " characters");
            }
        }
    }
}
