package dev.omcp.core.analysis.anomaly;

import java.util.Locale;

/**
 * What a metric measures, which decides the direction that matters and whether slow ramps are
 * looked for. {@link #forMetric} maps the curated metric names of {@code query_metrics}.
 */
public enum MetricKind {
    /**
     * Response times: only increases matter; slow ramps are checked; {@code +Inf} is a latency above
     * the largest histogram bucket, not a gap.
     */
    LATENCY(Sidedness.INCREASE, true),
    /** Error rates and counts: only increases matter; slow ramps are checked. */
    ERRORS(Sidedness.INCREASE, true),
    /** CPU, memory, queue depth: only increases matter; slow ramps are checked. */
    SATURATION(Sidedness.INCREASE, true),
    /**
     * Request rate: both a surge and a drop matter; no ramp check, and a clear trend in the baseline
     * is extended over the window rather than flattened (traffic ramps daily).
     */
    THROUGHPUT(Sidedness.BOTH, false),
    /** Anything else: both directions, no ramp check, a clear baseline trend extended as for throughput. */
    OTHER(Sidedness.BOTH, false);

    private final Sidedness sidedness;
    private final boolean trendDetection;

    MetricKind(Sidedness sidedness, boolean trendDetection) {
        this.sidedness = sidedness;
        this.trendDetection = trendDetection;
    }

    /** The direction that matters for this kind. */
    public Sidedness sidedness() {
        return sidedness;
    }

    /**
     * Whether {@code +Inf} is a value above every finite one: a percentile that {@code histogram_quantile}
     * places above the largest finite bucket, too high to measure, which only latencies are read from.
     */
    public boolean censoredAtInfinity() {
        return this == LATENCY;
    }

    /**
     * Whether the slow-ramp detector runs for this kind. A kind without it treats a steady climb as
     * normal, so its baseline's trend (when clear) becomes the expectation.
     */
    public boolean trendDetection() {
        return trendDetection;
    }

    /**
     * The kind of a curated metric name ({@code latency_p99}, {@code latency_p50},
     * {@code latency_avg}, {@code error_rate}, {@code cpu}, {@code memory}, {@code request_rate}) or,
     * for raw names, a guess from common suffixes ({@code _seconds}/{@code _duration} are latency,
     * {@code error}/{@code fail} errors); {@link #OTHER} otherwise.
     */
    public static MetricKind forMetric(String metric) {
        String m = metric.toLowerCase(Locale.ROOT);
        if (m.startsWith("latency") || m.contains("duration") || m.endsWith("_seconds") || m.contains("latency")) {
            return LATENCY;
        }
        if (m.contains("error") || m.contains("fail") || m.contains("5xx")) {
            return ERRORS;
        }
        if (m.equals("cpu") || m.equals("memory") || m.contains("saturation") || m.contains("utilization")
                || m.startsWith("cpu_") || m.startsWith("memory_")) {
            return SATURATION;
        }
        if (m.equals("request_rate") || m.contains("requests") || m.contains("throughput")) {
            return THROUGHPUT;
        }
        return OTHER;
    }
}
