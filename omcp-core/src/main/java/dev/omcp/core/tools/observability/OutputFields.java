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

    /** {@code {"type": type, "description": description}}. */
    static JsonObjectBuilder typed(String type, String description) {
        return type(type).add("description", description);
    }

    /** An array of strings. */
    static JsonObjectBuilder strings(String description) {
        return Jsonp.object().add("type", "array").add("items", type("string")).add("description", description);
    }

    /** An object of the given properties; every member an answer carries is one of them. */
    static JsonObjectBuilder object(String description, JsonObjectBuilder properties) {
        return Jsonp.object().add("type", "object").add("properties", properties).add("description", description);
    }

    /** An array of objects of the given properties. */
    static JsonObjectBuilder objects(String description, JsonObjectBuilder properties) {
        return Jsonp.object().add("type", "array").add("items", type("object").add("properties", properties))
                .add("description", description);
    }

    /**
     * A map whose names are data (label names, kinds, node ids), not fields: declared open on
     * purpose, with the type of its values.
     */
    static JsonObjectBuilder map(String description, String valueType) {
        return Jsonp.object().add("type", "object").add("additionalProperties", type(valueType)).add("description", description);
    }

    /** Label names to values, as a series or stream carries them. */
    static JsonObjectBuilder labels() {
        return map("Label names to values.", "string");
    }

    /**
     * The {@code history} member of the tools that judge and record anomaly scores: what the call
     * recorded and where scores are kept.
     */
    static JsonObjectBuilder recordedHistory() {
        return object("How many anomaly scores this call recorded and where they are kept.", Jsonp.object()
                .add("recorded", type("integer"))
                .add("inMemory", typed("string", "How long scores are kept in memory (get_anomaly_history reads them)."))
                .add("remoteWrite", typed("boolean", "Whether scores are also sent to OMCP_ANOMALY_HISTORY_REMOTE_WRITE."))
                .add("note", type("string")));
    }

    /** A string that is null when unknown. */
    static JsonObjectBuilder nullableString(String description) {
        return Jsonp.object().add("type", Jsonp.array().add("string").add("null")).add("description", description);
    }

    /** A duration argument without a default. */
    static JsonObject optionalDuration(String description) {
        return Jsonp.object().add("type", "string").add("pattern", Schemas.DURATION_PATTERN)
                .add("description", description + " A number and a unit: s, m, h or d, at most " + Durations.format(Durations.MAX)
                        + ", for example 30s, 5m.").build();
    }

    /** The value of an optional duration argument. */
    static Optional<Duration> optionalDuration(Arguments args, String name) {
        return args.optionalString(name).map(text -> Durations.parse(text)
                .orElseThrow(() -> Arguments.longerThanTheLongestWindow(name, text)));
    }
}
