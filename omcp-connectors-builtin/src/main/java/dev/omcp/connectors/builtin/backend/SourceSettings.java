package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed reads of connector-specific settings of a source entry, with messages that name the setting. */
public final class SourceSettings {
    private SourceSettings() {}

    /** A list of label names given as an array or a comma-separated string, or {@code fallback}. */
    public static List<String> labelList(JsonObject settings, String key, List<String> fallback) throws ConnectorException {
        JsonValue v = settings.get(key);
        if (v == null || v == JsonValue.NULL) {
            return fallback;
        }
        List<String> out = new ArrayList<>();
        if (v instanceof JsonString s) {
            Arrays.stream(s.getString().split(",")).map(String::trim).filter(x -> !x.isEmpty()).forEach(out::add);
        } else if (v.getValueType() == JsonValue.ValueType.ARRAY) {
            for (JsonValue item : v.asJsonArray()) {
                if (!(item instanceof JsonString s)) {
                    throw bad(key + " must list label names as strings");
                }
                out.add(s.getString().trim());
            }
        } else {
            throw bad(key + " must be a list of label names");
        }
        if (out.isEmpty()) {
            throw bad(key + " must name at least one label");
        }
        return QueryText.labelNames(out, key + " entry");
    }

    /** A map of strings, or empty. */
    public static Map<String, String> stringMap(JsonObject settings, String key) throws ConnectorException {
        JsonValue v = settings.get(key);
        if (v == null || v == JsonValue.NULL) {
            return Map.of();
        }
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw bad(key + " must be a map of names to strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> e : v.asJsonObject().entrySet()) {
            if (!(e.getValue() instanceof JsonString s)) {
                throw bad(key + "." + e.getKey() + " must be a string");
            }
            out.put(e.getKey(), s.getString());
        }
        return out;
    }

    /** A string, or empty. */
    public static Optional<String> string(JsonObject settings, String key) throws ConnectorException {
        JsonValue v = settings.get(key);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (!(v instanceof JsonString s)) {
            throw bad(key + " must be a string");
        }
        return Optional.of(s.getString());
    }

    /** A boolean, or {@code fallback}. */
    public static boolean bool(JsonObject settings, String key, boolean fallback) throws ConnectorException {
        JsonValue v = settings.get(key);
        if (v == null || v == JsonValue.NULL) {
            return fallback;
        }
        if (v == JsonValue.TRUE || v == JsonValue.FALSE) {
            return v == JsonValue.TRUE;
        }
        throw bad(key + " must be true or false");
    }

    private static ConnectorException bad(String message) {
        return new ConnectorException(ConnectorException.Kind.BAD_QUERY, message);
    }
}
