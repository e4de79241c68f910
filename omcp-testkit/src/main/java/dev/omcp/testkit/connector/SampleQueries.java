package dev.omcp.testkit.connector;

import dev.omcp.sdk.query.LogAggregation;
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
 * @param logAggregation the sample of {@code LogAggregatesCapability}, which is exercised only
 *     with one: what a backend can aggregate and a recording answers differs from one backend to
 *     the next ({@link #withLogAggregation})
 */
public record SampleQueries(String service, TimeRange range, String namespace, Optional<LogAggregation> logAggregation) {
    public SampleQueries {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(logAggregation, "logAggregation");
    }

    /** Samples without a log aggregation. */
    public SampleQueries(String service, TimeRange range, String namespace) {
        this(service, range, namespace, Optional.empty());
    }

    /** Samples for {@code service} over {@code range}. */
    public static SampleQueries of(String service, TimeRange range) {
        return new SampleQueries(service, range, "");
    }

    /**
     * These samples with {@code aggregation} for {@code LogAggregatesCapability}, for example
     * {@code samples.withLogAggregation(new LogAggregation(samples.logs(), LogAggregation.Function.SUM,
     * List.of(), 0, LogAggregation.tilingStep(samples.range().length(), Duration.ofMinutes(1))))} when
     * the recording answers that count.
     */
    public SampleQueries withLogAggregation(LogAggregation aggregation) {
        return new SampleQueries(service, range, namespace, Optional.of(aggregation));
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
