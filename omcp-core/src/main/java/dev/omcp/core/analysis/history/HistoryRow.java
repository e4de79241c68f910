package dev.omcp.core.analysis.history;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * One recorded anomaly score.
 *
 * @param service the service
 * @param signal the signal
 * @param at when it was judged
 * @param score the score (robust sigmas)
 * @param anomalous whether the verdict was an anomaly
 * @param kind the anomaly's kind when anomalous
 * @param onset when the deviation began, when the detector dated it (anomalies only, never after {@code at})
 * @param levelAboveLargestBucket the anomaly took a latency above its histogram's largest bucket
 *     ({@code +Inf}): {@code score} is a lower bound, and rankings place the row at least as high as
 *     any measured score (anomalies only)
 */
public record HistoryRow(String service, String signal, Instant at, double score, boolean anomalous, Optional<String> kind,
        Optional<Instant> onset, boolean levelAboveLargestBucket) {
    public HistoryRow {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(onset, "onset");
        if (onset.isPresent() && onset.get().isAfter(at)) {
            throw new IllegalArgumentException("onset " + onset.get() + " is after the judgement at " + at);
        }
        if (levelAboveLargestBucket && !anomalous) {
            throw new IllegalArgumentException("a level above the largest histogram bucket belongs to an anomaly, but the row of "
                    + signal + " of " + service + " at " + at + " is normal");
        }
    }

    /** A row whose score was measured, not a lower bound. */
    public HistoryRow(String service, String signal, Instant at, double score, boolean anomalous, Optional<String> kind,
            Optional<Instant> onset) {
        this(service, signal, at, score, anomalous, kind, onset, false);
    }

    /**
     * Strongest first: rows whose level was above the largest histogram bucket before every measured
     * one (their score is only a lower bound, and a latency too high for its histogram to measure is
     * the worst a latency can read, as {@code detect_anomalies} ranks it), then by score. Ties keep
     * the earlier row first.
     */
    public static final Comparator<HistoryRow> STRONGEST_FIRST = Comparator.comparing((HistoryRow r) -> !r.levelAboveLargestBucket())
            .thenComparing(Comparator.comparingDouble(HistoryRow::score).reversed()).thenComparing(HistoryRow::at);
}
