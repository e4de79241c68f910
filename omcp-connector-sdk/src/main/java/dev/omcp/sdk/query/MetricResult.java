package dev.omcp.sdk.query;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a {@link MetricQuery} or a {@link LogAggregation}.
 *
 * @param series the series found; empty when the service has no such metric
 * @param resolvedSeries the backend query that was actually run (for Prometheus, the PromQL), so an
 *     agent can see what "cpu" meant
 * @param resolvedLabel the label that identified the service (for example {@code job}); empty
 *     string when none matched
 * @param step the step the backend evaluated at, when the connector knows it: it may be wider
 *     than the one asked for (a backend's limit on points per series); empty when the answer has no
 *     step (an instant query) or the connector does not say
 * @param warnings what the backend said alongside its answer, one line each: Prometheus'
 *     {@code warnings} and {@code infos}, a query frontend's partial-response warning (some stores
 *     did not answer). The series may then be incomplete or approximate; the tools show these to
 *     the agent. Empty when the backend said nothing
 */
public record MetricResult(List<Series> series, String resolvedSeries, String resolvedLabel, Optional<Duration> step,
        List<String> warnings) {
    public MetricResult {
        series = List.copyOf(series);
        Objects.requireNonNull(resolvedSeries, "resolvedSeries");
        Objects.requireNonNull(resolvedLabel, "resolvedLabel");
        Objects.requireNonNull(step, "step");
        warnings = List.copyOf(warnings);
    }

    /** An answer with nothing said alongside it. */
    public MetricResult(List<Series> series, String resolvedSeries, String resolvedLabel, Optional<Duration> step) {
        this(series, resolvedSeries, resolvedLabel, step, List.of());
    }

    /** An answer that does not say which step ran. */
    public MetricResult(List<Series> series, String resolvedSeries, String resolvedLabel) {
        this(series, resolvedSeries, resolvedLabel, Optional.empty());
    }
}
