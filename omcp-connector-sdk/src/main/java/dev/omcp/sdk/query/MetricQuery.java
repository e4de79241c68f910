package dev.omcp.sdk.query;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A metric question about one service.
 *
 * @param service the service name (may contain slashes)
 * @param metric a curated metric name ({@code cpu}, {@code memory}, {@code request_rate},
 *     {@code error_rate}, {@code latency_p99}, {@code latency_p50}, {@code latency_avg}) or a raw
 *     metric name the backend knows
 * @param range the time window
 * @param step the resolution; the connector may widen it to stay under the backend's point limit
 * @param groupBy labels to keep as separate series; empty aggregates over all series
 * @param labels exact-match label filters, for example {@code {namespace="prod"}}
 */
public record MetricQuery(
        String service, String metric, TimeRange range, Duration step, List<String> groupBy, Map<String, String> labels) {
    public MetricQuery {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(step, "step");
        groupBy = List.copyOf(groupBy);
        labels = Map.copyOf(labels);
        if (step.isNegative() || step.isZero()) {
            throw new IllegalArgumentException("metric query step must be positive");
        }
    }
}
