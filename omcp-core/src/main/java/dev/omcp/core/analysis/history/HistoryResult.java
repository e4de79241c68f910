package dev.omcp.core.analysis.history;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a {@link HistoryQuery}.
 *
 * @param rows oldest first
 * @param truncated whether older matching rows were left out by the limit
 * @param retention how far back the in-memory history reaches
 * @param remoteSinkConfigured whether scores are also sent to a durable sink
 * @param note what the rows cannot show (for example that only the last hour is kept), when relevant
 * @param overwrittenUntil when a series asked for was judged more often than its
 *     {@link HistoryLimits#maxPointsPerSeries} fit in the retention: its scores up to this time
 *     (within the range asked) were overwritten, so rows the range covers may be missing
 * @param evictedUntil when the history was full ({@link HistoryLimits#maxSeries}) and series of the
 *     tenant were dropped to make room for others: the newest time any of them had been judged
 *     (within the range asked), so rows of series no longer held may be missing up to it
 */
public record HistoryResult(List<HistoryRow> rows, boolean truncated, Duration retention, boolean remoteSinkConfigured,
        Optional<String> note, Optional<Instant> overwrittenUntil, Optional<Instant> evictedUntil) {
    public HistoryResult {
        rows = List.copyOf(rows);
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(note, "note");
        Objects.requireNonNull(overwrittenUntil, "overwrittenUntil");
        Objects.requireNonNull(evictedUntil, "evictedUntil");
    }

    /** A result from which no series was evicted (the form before {@code evictedUntil}, kept for callers built against it). */
    public HistoryResult(List<HistoryRow> rows, boolean truncated, Duration retention, boolean remoteSinkConfigured,
            Optional<String> note, Optional<Instant> overwrittenUntil) {
        this(rows, truncated, retention, remoteSinkConfigured, note, overwrittenUntil, Optional.empty());
    }

    /** A result from which no score was overwritten or evicted. */
    public HistoryResult(List<HistoryRow> rows, boolean truncated, Duration retention, boolean remoteSinkConfigured,
            Optional<String> note) {
        this(rows, truncated, retention, remoteSinkConfigured, note, Optional.empty(), Optional.empty());
    }

    /**
     * JSON for {@code get_anomaly_history}: {@code rows[]} ({@code service, signal, at, score,
     * anomalous, kind, onset, levelAboveLargestBucket}; kind and onset only for anomalies, onset only when dated,
     * {@code levelAboveLargestBucket: true} only for an anomaly above the largest histogram bucket, whose score
     * is a lower bound), {@code truncated}, {@code retentionSeconds}, {@code remoteSinkConfigured},
     * {@code note} when there is one.
     */
    public JsonObject toJson() {
        JsonArrayBuilder a = Jsonp.provider().createArrayBuilder();
        for (HistoryRow r : rows) {
            JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("service", r.service()).add("signal", r.signal())
                    // two decimals, as the per-signal summary and the sparklines: a robust sigma needs no more
                    .add("at", r.at().toString()).add("score", Math.round(r.score() * 100) / 100.0).add("anomalous", r.anomalous());
            r.kind().ifPresent(k -> o.add("kind", k));
            r.onset().ifPresent(t -> o.add("onset", t.toString()));
            if (r.levelAboveLargestBucket()) {
                // only when true, as detect_anomalies: the score is a lower bound
                o.add("levelAboveLargestBucket", true);
            }
            a.add(o);
        }
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("rows", a).add("truncated", truncated)
                .add("retentionSeconds", retention.toSeconds()).add("remoteSinkConfigured", remoteSinkConfigured);
        note.ifPresent(n -> b.add("note", n));
        return b.build();
    }
}
