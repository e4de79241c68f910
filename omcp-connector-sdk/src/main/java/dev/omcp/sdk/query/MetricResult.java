package dev.omcp.sdk.query;

import java.util.List;
import java.util.Objects;

/**
 * The answer to a {@link MetricQuery}.
 *
 * @param series the series found; empty when the service has no such metric
 * @param resolvedSeries the backend query that was actually run (for Prometheus, the PromQL), so an
 *     agent can see what "cpu" meant
 * @param resolvedLabel the label that identified the service (for example {@code job}); empty
 *     string when none matched
 */
public record MetricResult(List<Series> series, String resolvedSeries, String resolvedLabel) {
    public MetricResult {
        series = List.copyOf(series);
        Objects.requireNonNull(resolvedSeries, "resolvedSeries");
        Objects.requireNonNull(resolvedLabel, "resolvedLabel");
    }
}
