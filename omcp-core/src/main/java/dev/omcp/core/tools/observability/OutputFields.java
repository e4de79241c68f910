package dev.omcp.core.tools.observability;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.Optional;

/** Small schema pieces the analysing tools share beyond {@link Schemas}. */
final class OutputFields {
    private OutputFields() {}

    /** {@code {"type": type}}, for adding a description. */
    static JsonObjectBuilder type(String type) {
        return Jsonp.object().add("type", type);
    }

    /** A JSON array of strings. */
    static jakarta.json.JsonArrayBuilder names(java.util.List<String> names) {
        jakarta.json.JsonArrayBuilder out = Jsonp.array();
        names.forEach(out::add);
        return out;
    }

    /** A string that is null when unknown. */
    static JsonObjectBuilder nullableString(String description) {
        return Jsonp.object().add("type", Jsonp.array().add("string").add("null")).add("description", description);
    }

    /** A duration argument without a default. */
    static JsonObject optionalDuration(String description) {
        return Jsonp.object().add("type", "string").add("pattern", Schemas.DURATION_PATTERN)
                .add("description", description + " A number and a unit: s, m, h or d, for example 30s, 5m.").build();
    }

    /** The value of an optional duration argument. */
    static Optional<Duration> optionalDuration(Arguments args, String name) {
        return args.optionalString(name).map(text -> Durations.parse(text).orElseThrow(() -> new InvalidArgumentException(
                name + " '" + text + "' is longer than the longest window, " + Durations.format(Durations.MAX))));
    }
}
