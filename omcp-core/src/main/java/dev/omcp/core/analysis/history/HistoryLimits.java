package dev.omcp.core.analysis.history;

import java.time.Duration;
import java.util.Objects;

/**
 * Memory bounds of the in-memory anomaly history.
 *
 * @param retention how long scores are kept (1 h by default, as spec 4.3 sparklines show the last hour)
 * @param maxSeries the most (tenant, service, signal) series kept; beyond it the series updated
 *     least recently is evicted (concurrent writers may exceed it briefly, by at most their number)
 * @param maxPointsPerSeries the most scores kept per series; beyond it the oldest is overwritten
 */
public record HistoryLimits(Duration retention, int maxSeries, int maxPointsPerSeries) {
    /**
     * The defaults: one hour, 2000 series, 360 points each (one every 10 s). Worst case about
     * 2000 x 360 x 34 bytes = 24 MB (time, score, onset, kind reference, two flags); a series allocates
     * its buffer as it grows, so typical use is far less.
     */
    public static HistoryLimits defaults() {
        return new HistoryLimits(Duration.ofHours(1), 2000, 360);
    }

    public HistoryLimits {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero() || retention.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("history retention must be between 1 ms and 1 day, got " + retention);
        }
        if (maxSeries < 1 || maxSeries > 1_000_000) {
            throw new IllegalArgumentException("maxSeries must be between 1 and 1000000, got " + maxSeries);
        }
        if (maxPointsPerSeries < 1 || maxPointsPerSeries > 100_000) {
            throw new IllegalArgumentException("maxPointsPerSeries must be between 1 and 100000, got " + maxPointsPerSeries);
        }
    }
}
