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
 * escaped) a fifth of a {@code query_logs} call. Here runs of characters that need no escaping are
 * appended at once. Thread-safe (stateless).
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
        // One pass that copies each run of plain characters with one append (an array copy when both
        // sides are Latin-1) and escapes in between. JSON inside JSON (a tool result's text form)
        // escapes every few characters; this beat measuring first and filling one char array by a
        // fifth to a third (TextFormBenchmark / docs/benchmarks.md).
        out.append('"');
        int n = text.length();
        int run = 0;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(text, run, i);
            escape(out, c);
            run = i + 1;
        }
        return out.append(text, run, n).append('"');
    }

    private static void escape(StringBuilder out, char c) {
        switch (c) {
            case '"' -> out.append('\\').append('"');
            case '\\' -> out.append('\\').append('\\');
            case '\b' -> out.append('\\').append('b');
            case '\t' -> out.append('\\').append('t');
            case '\n' -> out.append('\\').append('n');
            case '\f' -> out.append('\\').append('f');
            case '\r' -> out.append('\\').append('r');
            default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
        }
    }
}
