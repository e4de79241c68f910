package dev.omcp.core.analysis.traces;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The merged answer of {@code query_traces} (spec 4.4).
 *
 * @param service echoed
 * @param duration echoed
 * @param sources the sources that answered, in the order given
 * @param total how many traces are returned (after de-duplication, filtering and the cap)
 * @param errorCount how many of them have an error
 * @param p50DurationMs nearest-rank median duration over the returned traces; empty when none
 * @param p95DurationMs nearest-rank 95th percentile over the returned traces; empty when none
 * @param traces ranked: errors first, then slowest
 * @param errors one {@code "<source>: <message>"} per failed source; empty when none failed
 * @param note why the list is empty or cut, when it is
 */
public record TraceMergeResult(
        String service, String duration, List<String> sources, int total, int errorCount, OptionalDouble p50DurationMs,
        OptionalDouble p95DurationMs, List<TraceSummary> traces, List<String> errors, Optional<String> note) {
    public TraceMergeResult {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(duration, "duration");
        sources = List.copyOf(sources);
        Objects.requireNonNull(p50DurationMs, "p50DurationMs");
        Objects.requireNonNull(p95DurationMs, "p95DurationMs");
        traces = List.copyOf(traces);
        errors = List.copyOf(errors);
        Objects.requireNonNull(note, "note");
    }

    /** The same result with {@code note} in place of the merge's own. */
    public TraceMergeResult withNote(String note) {
        return new TraceMergeResult(service, duration, sources, total, errorCount, p50DurationMs, p95DurationMs, traces, errors,
                Optional.of(note));
    }

    /** Some sources failed while at least one answered. */
    public boolean partial() {
        return !errors.isEmpty() && !sources.isEmpty();
    }

    /**
     * The JSON of spec 4.4: {@code service}, {@code duration}, {@code sources}, {@code summary}
     * {@code {total, errorCount, p50DurationMs, p95DurationMs}} (the percentiles {@code null} when
     * there are no traces: no data is not zero), {@code traces[]} {@code {traceId, rootName,
     * rootService, durationMs, spanCount, hasError}}; {@code errors} and {@code partial: true} only
     * when a source failed; {@code note} only when there is something to explain.
     */
    public JsonObject toJson() {
        JsonObjectBuilder summary = Jsonp.provider().createObjectBuilder().add("total", total).add("errorCount", errorCount);
        summary.add("p50DurationMs", p50DurationMs.isPresent() ? Jsonp.provider().createValue(p50DurationMs.getAsDouble()) : JsonValue.NULL);
        summary.add("p95DurationMs", p95DurationMs.isPresent() ? Jsonp.provider().createValue(p95DurationMs.getAsDouble()) : JsonValue.NULL);
        JsonArrayBuilder list = Jsonp.provider().createArrayBuilder();
        for (TraceSummary t : traces) {
            list.add(Jsonp.provider().createObjectBuilder().add("traceId", t.traceId()).add("rootName", t.rootName())
                    .add("rootService", t.rootService()).add("durationMs", durationMs(t)).add("spanCount", t.spanCount())
                    .add("hasError", t.hasError()));
        }
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("service", service).add("duration", duration)
                .add("sources", Jsonp.provider().createArrayBuilder(sources)).add("summary", summary).add("traces", list);
        if (!errors.isEmpty()) {
            b.add("errors", Jsonp.provider().createArrayBuilder(errors));
            if (partial()) {
                b.add("partial", true);
            }
        }
        note.ifPresent(n -> b.add("note", n));
        return b.build();
    }

    /** A trace's duration as JSON: {@code null} when the source gave none that is valid (the merge made it NaN). */
    public static JsonValue durationMs(TraceSummary t) {
        return Double.isFinite(t.durationMs()) ? Jsonp.provider().createValue(t.durationMs()) : JsonValue.NULL;
    }
}
