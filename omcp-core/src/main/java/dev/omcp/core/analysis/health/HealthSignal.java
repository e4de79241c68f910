package dev.omcp.core.analysis.health;

import java.util.Optional;

/**
 * The signals service health is judged from. Each has a wire name (used in the thresholds JSON and
 * in tool output), the unit its thresholds are written in, and the curated metric it is read from
 * (what {@code query_metrics} reads it as: the wire names are threshold keys and do not always
 * match, {@code cpu} is read from {@code cpu_utilization}); for every signal a higher measure is
 * worse.
 */
public enum HealthSignal {
    /** Failed requests as a fraction of all requests, 0..1. */
    ERROR_RATE("error_rate", "ratio", true, "error_rate"),
    /** 99th percentile latency in milliseconds. */
    LATENCY_P99("latency_p99", "ms", false, "latency_p99"),
    /** CPU used as a fraction of the limit (or of the cores when no limit is set), 0..1. */
    CPU("cpu", "ratio", true, "cpu_utilization"),
    /** Memory used as a fraction of the limit, 0..1. */
    MEMORY("memory", "ratio", true, "memory_utilization"),
    /**
     * How much of its usual traffic a service lost: {@code 1 - current / baseline}, 0..1 (a surge
     * counts as 0). The reading carries the current and the baseline rate.
     */
    REQUEST_RATE_DROP("request_rate_drop", "ratio", true, "request_rate");

    private final String wireName;
    private final String unit;
    private final boolean fraction;
    private final String metric;

    HealthSignal(String wireName, String unit, boolean fraction, String metric) {
        this.wireName = wireName;
        this.unit = unit;
        this.fraction = fraction;
        this.metric = metric;
    }

    public String wireName() {
        return wireName;
    }

    /**
     * The curated metric the signal is read from, as {@code query_metrics} names it: the name an
     * agent reads the signal in detail with, and the signal name the anomaly history records. The
     * metric's values are in its own unit (latency in seconds, where the signal is in ms), and for
     * the request-rate drop it is the rate itself, not the fraction lost.
     */
    public String metric() {
        return metric;
    }

    /** The unit of the measure and thresholds: {@code ratio} (0..1) or {@code ms}. */
    public String unit() {
        return unit;
    }

    /**
     * The unit of a reading's {@code value} in the tool's answer: the measure's unit, except for
     * the request rate, whose value is the current rate (its measure, the drop, goes out as
     * {@code drop}).
     */
    public String valueUnit() {
        return this == REQUEST_RATE_DROP ? "requests/s" : unit;
    }

    /**
     * A value of the signal's backend series in the unit of its readings: latency series are in
     * seconds (Prometheus' convention) and readings in milliseconds; the others are read as they
     * come (ratios, and requests per second for the request rate).
     */
    public double fromSeries(double seriesValue) {
        return this == LATENCY_P99 ? seriesValue * 1000 : seriesValue;
    }

    /** Whether the measure is a fraction in 0..1 (thresholds above 1 are then refused). */
    boolean fraction() {
        return fraction;
    }

    /** The signal with this wire name. */
    public static Optional<HealthSignal> fromWireName(String name) {
        for (HealthSignal s : values()) {
            if (s.wireName.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    static String wireNames() {
        StringBuilder b = new StringBuilder();
        for (HealthSignal s : values()) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(s.wireName);
        }
        return b.toString();
    }
}
