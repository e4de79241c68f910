package dev.omcp.core.sources;

import dev.omcp.sdk.json.Jsonp;
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
import java.util.regex.Pattern;

/**
 * Which settings are secrets (masked when shown, kept when sent back masked; the rules are
 * {@link SourceSecrets}) and which name files on the gateway's disk (accepted from the sources
 * file only, never from the API).
 */
final class SecretSettings {
    private static final Pattern URL_IN_TEXT = Pattern.compile("(?i)\\b[a-z][a-z0-9+.-]*://[^\\s\"'<>]+");

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
     * {@code submitted} with every masked value replaced by the value at the same path of
     * {@code current}: a client that read masked settings and sends them back keeps the secrets.
     */
    static JsonObject unmask(JsonObject submitted, JsonObject current) {
        return (JsonObject) unmask((JsonValue) submitted, Optional.of(current));
    }

    private static JsonValue unmask(JsonValue submitted, Optional<JsonValue> current) {
        if (submitted instanceof JsonString s && s.getString().equals(ManageSources.MASK)) {
            return current.filter(c -> c.getValueType() == JsonValue.ValueType.STRING).orElse(JsonValue.NULL);
        }
        if (submitted.getValueType() == JsonValue.ValueType.OBJECT) {
            JsonObjectBuilder out = Jsonp.object();
            JsonObject cur = current.filter(c -> c.getValueType() == JsonValue.ValueType.OBJECT)
                    .map(JsonValue::asJsonObject).orElse(JsonValue.EMPTY_JSON_OBJECT);
            for (Map.Entry<String, JsonValue> e : submitted.asJsonObject().entrySet()) {
                out.add(e.getKey(), unmask(e.getValue(), Optional.ofNullable(cur.get(e.getKey()))));
            }
            return out.build();
        }
        return submitted;
    }

    /** Paths ({@code tls.caFile}) of masked values that had nothing to keep, so the draft is refused. */
    static List<String> unresolvedMasks(JsonObject unmasked) {
        List<String> paths = new ArrayList<>();
        walk(unmasked, "", (path, v) -> {
            if (v == JsonValue.NULL) {
                paths.add(path);
            }
        });
        return paths;
    }

    /** Every (path, value) of a file-path setting. */
    static Map<String, String> filePaths(JsonObject settings) {
        Map<String, String> out = new java.util.TreeMap<>();
        walk(settings, "", (path, v) -> {
            String last = path.substring(path.lastIndexOf('.') + 1);
            if (isFileKey(last) && v instanceof JsonString s) {
                out.put(path, s.getString());
            }
        });
        return out;
    }

    private interface Visitor {
        void visit(String path, JsonValue value);
    }

    private static void walk(JsonValue value, String path, Visitor visitor) {
        if (value.getValueType() == JsonValue.ValueType.OBJECT) {
            for (Map.Entry<String, JsonValue> e : value.asJsonObject().entrySet()) {
                walk(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), visitor);
            }
        } else {
            visitor.visit(path, value);
        }
    }

    /** {@code text} with anything that looks like a URL replaced, for log lines and messages. */
    static String withoutUrls(String text) {
        return text == null ? "" : URL_IN_TEXT.matcher(text).replaceAll("<url>");
    }
}
