package dev.omcp.core.analysis.history;

import java.time.Instant;
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
 */
public record HistoryRow(String service, String signal, Instant at, double score, boolean anomalous, Optional<String> kind,
        Optional<Instant> onset) {
    public HistoryRow {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(onset, "onset");
        if (onset.isPresent() && onset.get().isAfter(at)) {
            throw new IllegalArgumentException("onset " + onset.get() + " is after the judgement at " + at);
        }
    }
}
