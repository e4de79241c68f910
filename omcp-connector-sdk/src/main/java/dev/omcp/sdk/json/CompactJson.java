package dev.omcp.sdk.json;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Map;

/**
 * Serializes JSON-P values to compact text: exactly the characters {@code value.toString()} gives
 * with Parsson (no whitespace, members in their order, numbers as {@link jakarta.json.JsonNumber#toString()},
 * strings escaped the same way), written straight into one {@link StringBuilder}.
 *
 * <p>Why not {@code toString()}: a tool result is serialized on every call, twice for its text form
 * (once as JSON, once escaped inside {@code content[0].text}), and results of tens of kilobytes of
 * log lines made Parsson's generator (a writer, a character buffer and one call per character
 * escaped) a fifth of a {@code query_logs} call. Copying the runs of characters that need no
 * escaping at once roughly halves that. Thread-safe (stateless).
 */
public final class CompactJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CompactJson() {}

    /** {@code value} as compact JSON text. */
    public static String of(JsonValue value) {
        return append(new StringBuilder(256), value).toString();
    }

    /** Appends {@code value} as compact JSON text to {@code out}. */
    public static StringBuilder append(StringBuilder out, JsonValue value) {
        switch (value.getValueType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> member : ((JsonObject) value).entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    appendString(out, member.getKey()).append(':');
                    append(out, member.getValue());
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                JsonArray array = (JsonArray) value;
                for (int i = 0, n = array.size(); i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    append(out, array.get(i));
                }
                out.append(']');
            }
            case STRING -> appendString(out, ((JsonString) value).getString());
            case NUMBER -> out.append(value.toString());
            case TRUE -> out.append("true");
            case FALSE -> out.append("false");
            case NULL -> out.append("null");
        }
        return out;
    }

    /**
     * Appends {@code text} as a JSON string: in quotes, with {@code "} and {@code \} escaped, the
     * control characters below U+0020 written as {@code \b \t \n \f \r} or as a backslash,
     * {@code u} and four hex digits, and everything else (including non-ASCII) as it is.
     */
    public static StringBuilder appendString(StringBuilder out, String text) {
        out.append('"');
        int plainFrom = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(text, plainFrom, i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
            plainFrom = i + 1;
        }
        return out.append(text, plainFrom, text.length()).append('"');
    }
}
