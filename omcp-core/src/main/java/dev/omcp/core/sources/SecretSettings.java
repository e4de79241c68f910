package dev.omcp.core.sources;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.sources.SourceSecrets;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which settings are secrets (masked when shown, kept when sent back masked; the rules are
 * {@link SourceSecrets}) and which name files on the gateway's disk (accepted from the sources
 * file only, never from the API).
 */
final class SecretSettings {

    private SecretSettings() {}

    // the rules live in the ports: the sources file store narrows the file's mode by the same ones
    static boolean isSecretKey(String key) {
        return SourceSecrets.isSecretKey(key);
    }

    static boolean isFileKey(String key) {
        return SourceSecrets.isFileKey(key);
    }

    /** {@code settings} with every secret string (and every value of a secret header) masked. */
    static JsonObject mask(JsonObject settings) {
        return (JsonObject) mask(settings, false);
    }

    private static JsonValue mask(JsonValue value, boolean secret) {
        return mask(value, secret, false);
    }

    /** {@code headers}: {@code value} is the object of a {@code headers} setting, whose values are secret unless plain. */
    private static JsonValue mask(JsonValue value, boolean secret, boolean headers) {
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObjectBuilder out = Jsonp.object();
                for (Map.Entry<String, JsonValue> e : value.asJsonObject().entrySet()) {
                    String key = e.getKey();
                    boolean secretHere = secret || isSecretKey(key) || headers && SourceSecrets.isSecretHeader(key);
                    out.add(key, mask(e.getValue(), secretHere, !headers && key.equalsIgnoreCase("headers")));
                }
                return out.build();
            }
            case ARRAY -> {
                JsonArrayBuilder out = Jsonp.array();
                value.asJsonArray().forEach(v -> out.add(mask(v, secret)));
                return out.build();
            }
            case STRING -> {
                boolean credential = SourceSecrets.looksLikeCredential(((JsonString) value).getString());
                return secret || credential ? Jsonp.value(ManageSources.MASK) : value;
            }
            default -> {
                return value;
            }
        }
    }

    /**
     * Settings sent back with their masks replaced, the paths ({@code tls.ca}, {@code upstreams[1].password})
     * of masks with no stored string at their place, for which the draft is refused rather than saved with the
     * mask as the secret, and the paths of masks replaced by a stored secret.
     */
    record Unmasked(JsonObject settings, List<String> unresolved, List<String> kept) {}

    /**
     * {@code submitted} with every masked value replaced by the value at the same path of
     * {@code current} (an element of a list by its index, as {@link #mask} showed it): a client
     * that read masked settings and sends them back keeps the secrets.
     */
    static Unmasked unmask(JsonObject submitted, JsonObject current) {
        List<String> unresolved = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        JsonObject settings = (JsonObject) unmask(submitted, Optional.of(current), "", unresolved, kept);
        return new Unmasked(settings, List.copyOf(unresolved), List.copyOf(kept));
    }

    /**
     * The paths of the values of {@code settings} that are exactly {@link ManageSources#MASK}: a secret that merely
     * contains it (a password {@code a********b}) is a secret like any other.
     */
    static List<String> masks(JsonObject settings) {
        return unmask(settings, JsonValue.EMPTY_JSON_OBJECT).unresolved();
    }

    private static JsonValue unmask(JsonValue submitted, Optional<JsonValue> current, String path, List<String> unresolved,
            List<String> keptPaths) {
        if (submitted instanceof JsonString s && s.getString().equals(ManageSources.MASK)) {
            Optional<JsonValue> kept = current.filter(c -> c.getValueType() == JsonValue.ValueType.STRING);
            (kept.isEmpty() ? unresolved : keptPaths).add(path);
            return kept.orElse(submitted);
        }
        if (submitted.getValueType() == JsonValue.ValueType.OBJECT) {
            JsonObjectBuilder out = Jsonp.object();
            JsonObject cur = current.filter(c -> c.getValueType() == JsonValue.ValueType.OBJECT)
                    .map(JsonValue::asJsonObject).orElse(JsonValue.EMPTY_JSON_OBJECT);
            for (Map.Entry<String, JsonValue> e : submitted.asJsonObject().entrySet()) {
                out.add(e.getKey(), unmask(e.getValue(), Optional.ofNullable(cur.get(e.getKey())),
                        path.isEmpty() ? e.getKey() : path + "." + e.getKey(), unresolved, keptPaths));
            }
            return out.build();
        }
        if (submitted.getValueType() == JsonValue.ValueType.ARRAY) {
            // mask() masks a list element by element, so a list sent back is matched element by element
            JsonArrayBuilder out = Jsonp.array();
            List<JsonValue> cur = current.filter(c -> c.getValueType() == JsonValue.ValueType.ARRAY)
                    .map(JsonValue::asJsonArray).<List<JsonValue>>map(a -> a).orElse(List.of());
            List<JsonValue> items = submitted.asJsonArray();
            for (int i = 0; i < items.size(); i++) {
                out.add(unmask(items.get(i), i < cur.size() ? Optional.of(cur.get(i)) : Optional.empty(),
                        path + "[" + i + "]", unresolved, keptPaths));
            }
            return out.build();
        }
        return submitted;
    }

    /**
     * Every (path, value) of a file-path setting, in lists too: {@code upstreams[1].caFile}, and
     * {@code tls.caFile[0]} for a list under a file key.
     */
    static Map<String, String> filePaths(JsonObject settings) {
        Map<String, String> out = new TreeMap<>();
        walk(settings, "", (path, v) -> {
            String last = withoutListIndexes(path.substring(path.lastIndexOf('.') + 1));
            if (isFileKey(last) && v instanceof JsonString s) {
                out.put(path, s.getString());
            }
        });
        return out;
    }

    /** Every (path, value) of a string setting, in lists too ({@code upstreams[1].url}), for {@link BackendOrigin#movedIn}. */
    static Map<String, String> strings(JsonObject settings) {
        Map<String, String> out = new TreeMap<>();
        walk(settings, "", (path, v) -> {
            if (v instanceof JsonString s) {
                out.put(path, s.getString());
            }
        });
        return out;
    }

    /**
     * {@code key} without the indexes a path gives a list's elements at its end ({@code caFile[0][1]} is
     * {@code caFile}). Scanned
     * from the end: the keys come from a management API body, and the regular expression this replaces
     * recursed once per index (a key of tens of thousands overflowed the stack) and retried from every
     * {@code [} (quadratic).
     */
    static String withoutListIndexes(String key) {
        int end = key.length();
        while (end > 0 && key.charAt(end - 1) == ']') {
            int open = end - 2;
            while (open >= 0 && key.charAt(open) >= '0' && key.charAt(open) <= '9') {
                open--;
            }
            if (open < 0 || open == end - 2 || key.charAt(open) != '[') {
                break;
            }
            end = open;
        }
        return key.substring(0, end);
    }

    private interface Visitor {
        void visit(String path, JsonValue value);
    }

    private static void walk(JsonValue value, String path, Visitor visitor) {
        if (value.getValueType() == JsonValue.ValueType.OBJECT) {
            for (Map.Entry<String, JsonValue> e : value.asJsonObject().entrySet()) {
                walk(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), visitor);
            }
        } else if (value.getValueType() == JsonValue.ValueType.ARRAY) {
            List<JsonValue> items = value.asJsonArray();
            for (int i = 0; i < items.size(); i++) {
                walk(items.get(i), path + "[" + i + "]", visitor);
            }
        } else {
            visitor.visit(path, value);
        }
    }

    /**
     * {@code text} with anything that looks like a URL replaced, for log lines and messages: in linear time, since
     * a connector's or backend's message may be long and searching with the expression is quadratic on some texts.
     */
    static String withoutUrls(String text) {
        return text == null ? "" : BackendText.withoutUrls(text);
    }
}
