package dev.omcp.adapters.http.settings;

import dev.omcp.adapters.http.api.BodySchema;
import java.util.List;
import java.util.Map;

/**
 * The schema of the health thresholds as a body carries them: {@code PUT /api/health/thresholds} and the
 * {@code healthThresholds} member of {@code PUT /api/settings} take the same object, so both routes publish
 * this one. It repeats what the core's threshold model refuses (the signal names, the ranges), because the
 * HTTP adapter does not see the core; {@code OpenApiDocumentIT} sends the examples to a real gateway to keep
 * the two in step.
 */
public final class ThresholdsSchema {
    /** p99 latency thresholds above one hour are refused as a unit mistake. */
    private static final int MAX_LATENCY_MS = 3_600_000;
    private static final int MAX_WEIGHT = 100;

    /** Per signal, what overrides its shipped default; a signal left out returns to its default. */
    public static final Map<String, Object> SIGNALS = BodySchema.object("per health signal, the fields that override its shipped "
                    + "default; a signal left out returns to its default; at least one signal must stay enabled")
            .property("error_rate", signal("fraction of requests that fail", 1))
            .property("latency_p99", signal("p99 latency in milliseconds", MAX_LATENCY_MS))
            .property("cpu", signal("fraction of the CPU limit", 1))
            .property("memory", signal("fraction of the memory limit", 1))
            .property("request_rate_drop", signal("fraction by which the request rate fell from its baseline", 1))
            .build();

    /** The body of {@code PUT /api/health/thresholds}: the signals, or a whole {@code GET} answer sent back. */
    public static final Map<String, Object> REPLACEMENT = Map.of("type", "object",
            "description", "the thresholds by signal, or a whole GET /api/health/thresholds answer {thresholds, persisted}",
            "anyOf", List.of(SIGNALS, BodySchema.object("a GET answer sent back; persisted and changed are read-only")
                    .requiredProperty("thresholds", SIGNALS)
                    .property("persisted", BodySchema.bool("read-only, ignored"))
                    .property("changed", Map.of("description", "read-only, ignored"))
                    .build()));

    private ThresholdsSchema() {}

    private static Map<String, Object> signal(String measures, int maximum) {
        String range = "greater than 0 and at most " + maximum;
        return BodySchema.object("the signal's thresholds: " + measures + "; critical must be greater than degraded")
                .property("degraded", BodySchema.positiveNumber("degraded from this value on; " + range, maximum))
                .property("critical", BodySchema.positiveNumber("critical from this value on; " + range, maximum))
                .property("weight", BodySchema.positiveNumber("how much the signal counts in the score; greater than 0 and at most "
                        + MAX_WEIGHT, MAX_WEIGHT))
                .property("enabled", BodySchema.bool("false: the signal is neither scored nor reported missing"))
                .property("unit", BodySchema.string("read-only: accepted only as GET shows it"))
                .property("metric", BodySchema.string("read-only: accepted only as GET shows it"))
                .build();
    }
}
