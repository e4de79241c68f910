package dev.omcp.testkit.demo.json;

import dev.omcp.sdk.json.Jsonp;

import java.util.Collection;
import java.util.Map;

/** JSON text helpers for simulated backends that write large answers with a StringBuilder. */
public final class JsonText {
    private JsonText() {}

    /** A JSON string literal, escaped. */
    public static String quote(String text) {
        return Jsonp.value(text).toString();
    }

    /** A JSON array of strings, in the order given. */
    public static String array(Collection<String> values) {
        StringBuilder out = new StringBuilder("[");
        boolean first = true;
        for (String value : values) {
            out.append(first ? "" : ",").append(quote(value));
            first = false;
        }
        return out.append(']').toString();
    }

    /** A JSON object of string values. */
    public static String object(Map<String, String> map) {
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> entry : map.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            out.append(quote(entry.getKey())).append(':').append(quote(entry.getValue()));
        }
        return out.append('}').toString();
    }
}
