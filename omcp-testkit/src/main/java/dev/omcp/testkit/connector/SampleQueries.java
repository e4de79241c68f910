package dev.omcp.testkit.connector;

import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.TraceQuery;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The sample queries the contract check runs against a recorded mock: one per capability, for a
 * service and a window the recording covers.
 *
 * @param service the service the recording knows
 * @param range the window the recording covers
 * @param namespace the namespace for the topology sample, or empty string for all
 */
public record SampleQueries(String service, TimeRange range, String namespace) {
    public SampleQueries {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(namespace, "namespace");
    }

    /** Samples for {@code service} over {@code range}. */
    public static SampleQueries of(String service, TimeRange range) {
        return new SampleQueries(service, range, "");
    }

    public MetricQuery metrics() {
        return new MetricQuery(service, "request_rate", range, Duration.ofSeconds(60), List.of(), Map.of());
    }

    public LogQuery logs() {
        return new LogQuery(service, range, Optional.empty(), Optional.empty(), Map.of(), 10);
    }

    public TraceQuery traces() {
        return new TraceQuery(service, range, Optional.empty(), 10, false);
    }
}
