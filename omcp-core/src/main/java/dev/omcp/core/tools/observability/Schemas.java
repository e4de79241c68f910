package dev.omcp.core.tools.observability;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;

/**
 * JSON Schema fragments the observability tools share, so every tool spells a service name, a
 * duration or a limit the same way (DECISIONS.md "Tools").
 */
public final class Schemas {
    /** Service names may contain slashes (spec 1.9). */
    public static final String SERVICE_PATTERN = "^[A-Za-z0-9_.:/-]{1,128}$";
    /** A duration such as {@code 30s}, {@code 15m}, {@code 1h}, {@code 7d}. */
    public static final String DURATION_PATTERN = "^[1-9][0-9]{0,4}[smhd]$";
    /** A source name as the sources file spells it. */
    public static final String SOURCE_PATTERN = "^[a-z0-9][a-z0-9._-]{0,62}$";
    /** A label name as Prometheus and Loki spell it. */
    public static final String LABEL_PATTERN = "^[A-Za-z_][A-Za-z0-9_]{0,127}$";
    /**
     * A label name of a metrics query: {@link #LABEL_PATTERN} widened by the '.', '-' and '/' of
     * OpenTelemetry attribute names ({@code http.route}, {@code service.name}), which Prometheus 3
     * stores as they are. Logs keep {@link #LABEL_PATTERN}: LogQL has no quoted label names.
     */
    public static final String METRIC_LABEL_PATTERN = "^[A-Za-z_][A-Za-z0-9_./-]{0,127}$";

    private Schemas() {}

    /** An object schema under construction. */
    public static final class ObjectSchema {
        private final JsonObjectBuilder properties = Jsonp.object();
        private final JsonArrayBuilder required = Jsonp.array();
        private boolean anyRequired;

        public ObjectSchema property(String name, JsonObject schema) {
            properties.add(name, schema);
            return this;
        }

        public ObjectSchema required(String name, JsonObject schema) {
            properties.add(name, schema);
            required.add(name);
            anyRequired = true;
            return this;
        }

        /** The schema; unknown arguments are refused so typos surface instead of being ignored. */
        public JsonObject build() {
            JsonObjectBuilder schema = Jsonp.object().add("type", "object").add("properties", properties)
                    .add("additionalProperties", false);
            if (anyRequired) {
                schema.add("required", required);
            }
            return schema.build();
        }
    }

    public static ObjectSchema object() {
        return new ObjectSchema();
    }

    public static JsonObject service(String description) {
        return Jsonp.object().add("type", "string").add("pattern", SERVICE_PATTERN).add("description", description).build();
    }

    /**
     * A duration argument of up to {@link Durations#MAX}: the pattern bounds only the form, so the
     * maximum the tools enforce is stated where a model reads it.
     */
    public static JsonObject duration(String description, String defaultValue) {
        return duration(description + " At most " + Durations.format(Durations.MAX) + ".", defaultValue, "30s, 15m, 1h, 7d");
    }

    /**
     * A duration argument whose examples are all values it accepts: a window of 2m to 1d must not
     * offer a model 30s or 7d as examples of what to send.
     */
    public static JsonObject duration(String description, String defaultValue, String examples) {
        return Jsonp.object().add("type", "string").add("pattern", DURATION_PATTERN).add("default", defaultValue)
                .add("description", description + " A number and a unit: s, m, h or d, for example " + examples + ".").build();
    }

    public static JsonObject integer(String description, int minimum, int maximum, int defaultValue) {
        return Jsonp.object().add("type", "integer").add("minimum", minimum).add("maximum", maximum)
                .add("default", defaultValue).add("description", description).build();
    }

    /**
     * An integer argument that some combinations of the other arguments refuse (get_topology
     * {@code depth} without {@code focus}, query_logs {@code limit} with {@code aggregate}): it
     * declares no {@code default}, since a client or model that sends every declared default must
     * not be refused for it; {@code description} says the default in words.
     */
    public static JsonObject integerWithoutDefault(String description, int minimum, int maximum) {
        return Jsonp.object().add("type", "integer").add("minimum", minimum).add("maximum", maximum)
                .add("description", description).build();
    }

    public static JsonObject bool(String description, boolean defaultValue) {
        return Jsonp.object().add("type", "boolean").add("default", defaultValue).add("description", description).build();
    }

    public static JsonObject string(String description, int maxLength) {
        return Jsonp.object().add("type", "string").add("minLength", 1).add("maxLength", maxLength).add("description", description).build();
    }

    public static JsonObject enumOf(String description, List<String> values, String defaultValue) {
        JsonArrayBuilder allowed = Jsonp.array();
        values.forEach(allowed::add);
        JsonObjectBuilder schema = Jsonp.object().add("type", "string").add("enum", allowed).add("description", description);
        if (defaultValue != null) {
            schema.add("default", defaultValue);
        }
        return schema.build();
    }

    public static JsonObject source(String description) {
        return Jsonp.object().add("type", "string").add("pattern", SOURCE_PATTERN).add("description", description).build();
    }

    /** Exact-match label filters: an object of label name to value. */
    public static JsonObject labels(String description) {
        return labels(description, LABEL_PATTERN);
    }

    /** Exact-match label filters whose names match {@code namePattern} ({@link #LABEL_PATTERN} or {@link #METRIC_LABEL_PATTERN}). */
    public static JsonObject labels(String description, String namePattern) {
        return Jsonp.object().add("type", "object")
                .add("propertyNames", Jsonp.object().add("pattern", namePattern))
                .add("additionalProperties", Jsonp.object().add("type", "string").add("maxLength", 256))
                .add("maxProperties", 16)
                .add("description", description).build();
    }

    /** A list of label names. */
    public static JsonObject labelNames(String description, int maxItems) {
        return labelNames(description, maxItems, LABEL_PATTERN);
    }

    /** A list of label names matching {@code namePattern} ({@link #LABEL_PATTERN} or {@link #METRIC_LABEL_PATTERN}). */
    public static JsonObject labelNames(String description, int maxItems, String namePattern) {
        return Jsonp.object().add("type", "array")
                .add("items", Jsonp.object().add("type", "string").add("pattern", namePattern))
                .add("maxItems", maxItems).add("uniqueItems", true).add("description", description).build();
    }

    /**
     * The common members of every tool's output: which sources answered and which failed. Tools add
     * their own properties to it.
     */
    public static JsonObjectBuilder outputBase() {
        return Jsonp.object()
                .add("sources", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string"))
                        .add("description", "Sources that answered."))
                .add("partial", Jsonp.object().add("type", "boolean")
                        .add("description", "true when some sources failed; what succeeded is still returned."))
                .add("failedSources", failedSources(Jsonp.object()))
                .add("backendWarnings", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                                .add("properties", Jsonp.object()
                                        .add("source", Jsonp.object().add("type", "string"))
                                        .add("warnings", Jsonp.object().add("type", "array")
                                                .add("items", Jsonp.object().add("type", "string")))))
                        .add("description", "Present only when a source answered but warned (Prometheus warnings and infos, "
                                + "Loki warnings, a query frontend saying some stores did not answer): its data may be incomplete "
                                + "or approximate."))
                .add("note", Jsonp.object().add("type", "string")
                        .add("description", "Why data is missing or partial, and which setting or tool helps."));
    }

    /**
     * The {@code failedSources} member of {@link #outputBase()} with {@code extra} properties on
     * each entry, for a tool whose failures say more than every tool's do ({@code query_logs}: the
     * query). Only that tool's schema grows, which keeps {@code tools/list} small.
     */
    public static JsonObject failedSources(JsonObjectBuilder extra) {
        JsonObjectBuilder properties = Jsonp.object()
                .add("source", Jsonp.object().add("type", "string"))
                .add("kind", Jsonp.object().add("type", "string")
                        .add("description", "unavailable, timeout, bad_query, unauthorized, bad_response or address_refused; "
                                + "unchecked when the source answered but the gateway left out names it has not checked yet "
                                + "(error says how many and what to do)."))
                .add("error", Jsonp.object().add("type", "string"))
                .add("during", Jsonp.object().add("type", "string").add("description", "What the tool was doing."))
                .add("failedQueries", Jsonp.object().add("type", "integer"))
                .add("metrics", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string"))
                        .add("description", "The metrics whose queries failed."));
        extra.build().forEach(properties::add);
        return Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object").add("properties", properties))
                .add("description", "Present only when a source failed.").build();
    }

    /** An output schema from the common base plus a tool's own properties. */
    public static JsonObject output(JsonObjectBuilder properties, List<String> required) {
        JsonArrayBuilder names = Jsonp.array();
        required.forEach(names::add);
        return Jsonp.object().add("type", "object").add("properties", properties).add("required", names).build();
    }
}
