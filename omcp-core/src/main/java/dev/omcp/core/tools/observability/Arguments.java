package dev.omcp.core.tools.observability;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Typed reads of a tool call's arguments. The gateway has validated them against the tool's input
 * schema already, so reads only apply defaults and convert.
 */
public final class Arguments {
    private final JsonObject json;

    public Arguments(JsonObject json) {
        this.json = json;
    }

    public String string(String name) {
        return json.getString(name);
    }

    public Optional<String> optionalString(String name) {
        JsonValue value = json.get(name);
        return value instanceof JsonString s && !s.getString().isEmpty() ? Optional.of(s.getString()) : Optional.empty();
    }

    public String string(String name, String defaultValue) {
        return optionalString(name).orElse(defaultValue);
    }

    public int integer(String name, int defaultValue) {
        return json.containsKey(name) && json.get(name).getValueType() == JsonValue.ValueType.NUMBER
                ? json.getJsonNumber(name).intValue() : defaultValue;
    }

    public boolean bool(String name, boolean defaultValue) {
        JsonValue value = json.get(name);
        if (value == JsonValue.TRUE) {
            return true;
        }
        return value == JsonValue.FALSE ? false : defaultValue;
    }

    /** A duration argument; the schema's pattern guarantees the form, the maximum is checked here. */
    public Duration duration(String name, String defaultValue) {
        String text = string(name, defaultValue);
        return Durations.parse(text).orElseThrow(() -> longerThanTheLongestWindow(name, text));
    }

    /** The refusal of a duration past {@link Durations#MAX}: what it is, and what to send instead. */
    static InvalidArgumentException longerThanTheLongestWindow(String name, String text) {
        String longest = Durations.format(Durations.MAX);
        return new InvalidArgumentException(name + " '" + text + "' is longer than the longest window, " + longest + "; send "
                + longest + " or less");
    }

    /**
     * A duration argument whose tool accepts a range narrower than {@link Durations#MAX} and checks
     * it itself (get_service_health, detect_anomalies, get_anomaly_history): a window past
     * {@link Durations#MAX} reaches that check too, so the refusal names the tool's own bound
     * instead of a {@link Durations#MAX} the tool would refuse next.
     */
    public Duration durationCheckedByTool(String name, String defaultValue) {
        String text = string(name, defaultValue);
        return Durations.parseAnyLength(text).orElseThrow(() -> new InvalidArgumentException(
                name + " '" + text + "' is not a duration: a number and a unit s, m, h or d, for example 15m"));
    }

    public Map<String, String> labels(String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        JsonValue value = json.get(name);
        if (value instanceof JsonObject object) {
            object.forEach((k, v) -> labels.put(k, ((JsonString) v).getString()));
        }
        return labels;
    }

    public List<String> strings(String name) {
        List<String> values = new ArrayList<>();
        JsonValue value = json.get(name);
        if (value instanceof JsonArray array) {
            array.forEach(v -> values.add(((JsonString) v).getString()));
        }
        return values;
    }

    public JsonObject raw() {
        return json;
    }
}
