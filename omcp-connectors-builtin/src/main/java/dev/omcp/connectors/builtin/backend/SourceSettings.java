package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Typed reads of connector-specific settings of a source entry, with messages that name the setting. */
public final class SourceSettings {
    /** A duration as Prometheus writes one in whole seconds or more: {@code 15s}, {@code 1m}, {@code 1m30s}, {@code 1h}. */
    private static final Pattern DURATION = Pattern.compile("(?:(\\d{1,4})h)?(?:(\\d{1,6})m)?(?:(\\d{1,7})s)?");

    private SourceSettings() {}

    /** A list of label names given as an array or a comma-separated string, or {@code fallback}; each name checked by {@code rule}. */
    public static List<String> labelList(JsonObject settings, String key, List<String> fallback, QueryText.LabelNameRule rule)
            throws ConnectorException {
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
        for (String name : out) {
            rule.check(name, key + " entry");
        }
        return out;
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

    /**
     * A duration written as Prometheus writes one ({@code 15s}, {@code 1m}, {@code 1m30s}), between
     * {@code min} and {@code max}, or {@code fallback}. The message names the setting and the
     * limits, not the value given.
     */
    public static Duration duration(JsonObject settings, String key, Duration fallback, Duration min, Duration max)
            throws ConnectorException {
        JsonValue v = settings.get(key);
        if (v == null || v == JsonValue.NULL) {
            return fallback;
        }
        if (!(v instanceof JsonString s)) {
            throw bad(key + " must be " + durationForm(min, max));
        }
        return duration(s.getString(), min, max).orElseThrow(() -> bad(key + " must be " + durationForm(min, max)));
    }

    /**
     * {@code text} as a duration written as Prometheus writes one ({@code 15s}, {@code 1m},
     * {@code 1m30s}), between {@code min} and {@code max}; empty when it is no such duration. For a
     * setting given elsewhere than a source entry (an environment variable), checked by the same rule.
     */
    public static Optional<Duration> duration(String text, Duration min, Duration max) {
        Matcher m = DURATION.matcher(text);
        if (text.isEmpty() || !m.matches()) {
            return Optional.empty();
        }
        Duration d = Duration.ofHours(part(m, 1)).plusMinutes(part(m, 2)).plusSeconds(part(m, 3));
        return d.compareTo(min) < 0 || d.compareTo(max) > 0 ? Optional.empty() : Optional.of(d);
    }

    /** What {@link #duration(String, Duration, Duration)} accepts, in words: {@code a duration from 1s to 1h in h, m and s, ...}. */
    public static String durationForm(Duration min, Duration max) {
        return "a duration from " + written(min) + " to " + written(max) + " in h, m and s, for example 15s or 1m";
    }

    /** {@code d} in the largest whole unit: {@code 1h}, {@code 5m}, {@code 90s}. */
    private static String written(Duration d) {
        long seconds = d.toSeconds();
        return seconds % 3600 == 0 ? seconds / 3600 + "h" : seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }

    private static long part(Matcher m, int group) {
        return m.group(group) == null ? 0 : Long.parseLong(m.group(group));
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
