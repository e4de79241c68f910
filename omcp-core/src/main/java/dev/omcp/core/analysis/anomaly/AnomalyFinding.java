package dev.omcp.core.analysis.anomaly;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The verdict on one series.
 *
 * @param labels the series' labels, unchanged
 * @param status anomalous, normal, or not enough data to say
 * @param score how far the series deviates, in robust standard deviations of the baseline, always
 *     {@code >= 0}. For an anomaly: the largest median z of its anomalous runs (for a ramp: the
 *     fitted end of the ramp above the baseline). For a normal series: the strongest sustained
 *     deviation seen (the largest z that dwell consecutive window points all reached), so a
 *     near-miss is visible. NaN when there was not enough data
 * @param direction up or down; {@link Direction#NONE} unless anomalous
 * @param onset the timestamp of the first point of the first anomalous run
 * @param kind the shape of the anomaly, judged from its last run
 * @param evidence the numbers behind the verdict; empty only when there was not enough data
 * @param note one sentence for a human: what was found, or why nothing could be said
 */
public record AnomalyFinding(
        Map<String, String> labels, Status status, double score, Direction direction, Optional<Instant> onset,
        Optional<AnomalyKind> kind, Optional<Evidence> evidence, String note) {

    /** The three possible verdicts. */
    public enum Status {
        ANOMALOUS("anomalous"),
        NORMAL("normal"),
        /** Too few points to judge; {@link #note} says how many were needed. Never guessed. */
        INSUFFICIENT_DATA("insufficient_data");

        private final String wireName;

        Status(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public AnomalyFinding {
        labels = Map.copyOf(labels);
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(onset, "onset");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(note, "note");
        if (status == Status.ANOMALOUS && (onset.isEmpty() || kind.isEmpty() || direction == Direction.NONE)) {
            throw new IllegalArgumentException("an anomalous finding needs an onset, a kind and a direction");
        }
    }

    /** Whether the series is anomalous. */
    public boolean anomalous() {
        return status == Status.ANOMALOUS;
    }

    /**
     * The finding as JSON for tool output: {@code labels}, {@code status}, {@code anomalous}
     * (absent when there was not enough data: not knowing is not "false"), {@code score},
     * {@code direction}, {@code onset} (ISO-8601), {@code kind}, {@code evidence} and {@code note}.
     * Numbers that are unknown are left out, never written as 0. A level above the largest histogram
     * bucket ({@code +Inf}) is left out too, and {@code <name>AboveLargestBucket: true} says so: JSON
     * has no infinity, and no number would be honest.
     */
    public JsonObject toJson() {
        JsonObjectBuilder labelsJson = Jsonp.provider().createObjectBuilder();
        labels.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(en -> labelsJson.add(en.getKey(), en.getValue()));
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("labels", labelsJson).add("status", status.wireName());
        if (status != Status.INSUFFICIENT_DATA) {
            b.add("anomalous", anomalous());
            putFinite(b, "score", score);
        }
        if (direction != Direction.NONE) {
            b.add("direction", direction.wireName());
        }
        onset.ifPresent(o -> b.add("onset", o.toString()));
        kind.ifPresent(k -> b.add("kind", k.wireName()));
        evidence.ifPresent(e -> {
            JsonObjectBuilder ev = Jsonp.provider().createObjectBuilder().add("method", e.method());
            putFinite(ev, "baselineMedian", e.baselineMedian());
            putFinite(ev, "expectedLevel", e.expectedLevel());
            putFinite(ev, "baselineMad", e.baselineMad());
            putFinite(ev, "scale", e.scale());
            ev.add("scaleSource", e.scaleSource());
            putLevel(ev, "windowMedian", e.windowMedian());
            putLevel(ev, "anomalyLevel", e.anomalyLevel());
            putLevel(ev, "currentLevel", e.currentLevel());
            ev.add("baselinePoints", e.baselinePoints()).add("windowPoints", e.windowPoints());
            if (e.windowPointsAboveLargestBucket() > 0) {
                ev.add("windowPointsAboveLargestBucket", e.windowPointsAboveLargestBucket());
            }
            if (e.baselinePointsAboveLargestBucket() > 0) {
                ev.add("baselinePointsAboveLargestBucket", e.baselinePointsAboveLargestBucket());
            }
            if (e.seasonPeriods() > 0) {
                ev.add("seasonPeriods", e.seasonPeriods());
            }
            putFinite(ev, "trendSlopePerHour", e.trendSlopePerHour());
            b.add("evidence", ev);
        });
        return b.add("note", note).build();
    }

    /** The JSON schema of the {@code evidence} member {@link #toJson} writes; kept next to it so the two stay in step. */
    public static JsonObject evidenceSchema() {
        JsonObjectBuilder properties = Jsonp.provider().createObjectBuilder()
                .add("method", described("string", "How the expectation was formed: flat, trend or seasonal."));
        for (String number : List.of("baselineMedian", "expectedLevel", "baselineMad", "scale", "windowMedian", "anomalyLevel",
                "currentLevel", "trendSlopePerHour")) {
            properties.add(number, described("number", "In the series' unit; absent when unknown."));
        }
        for (String level : List.of("windowMedian", "anomalyLevel", "currentLevel")) {
            properties.add(level + "AboveLargestBucket", described("boolean", "Only when true: " + level + " lies above the largest "
                    + "histogram bucket (the latency histogram answered +Inf, too high to measure), so it is left out."));
        }
        properties.add("scaleSource", described("string", "Where the scale of a deviation came from: mad, mean-abs-dev, floor (1 % "
                        + "of the expected level) or minimum-change (the smallest change worth reporting, which then scores 3.5 sigma)."))
                .add("baselinePoints", described("integer", "Finite points in the baseline."))
                .add("windowPoints", described("integer", "Points in the judged window (those above the largest bucket included)."))
                .add("windowPointsAboveLargestBucket", described("integer", "Only when some: window points above the largest "
                        + "histogram bucket (+Inf), each judged at least " + (int) AnomalyDetector.CENSORED_Z + " sigma off."))
                .add("baselinePointsAboveLargestBucket", described("integer", "Only when some: baseline points above the largest "
                        + "histogram bucket (+Inf), left out of the baseline."))
                .add("seasonPeriods", described("integer", "Periods of history behind a seasonal expectation."));
        return Jsonp.provider().createObjectBuilder().add("type", "object").add("properties", properties)
                .add("description", "The numbers behind the verdict.").build();
    }

    private static JsonObjectBuilder described(String type, String description) {
        return Jsonp.provider().createObjectBuilder().add("type", type).add("description", description);
    }

    /** A level, or for {@code +Inf} (above the largest histogram bucket) the flag that says so instead. */
    private static void putLevel(JsonObjectBuilder b, String name, double value) {
        if (value == Double.POSITIVE_INFINITY) {
            b.add(name + "AboveLargestBucket", true);
        } else {
            putFinite(b, name, value);
        }
    }

    private static void putFinite(JsonObjectBuilder b, String name, double value) {
        if (Double.isFinite(value)) {
            b.add(name, value);
        }
    }

    static AnomalyFinding insufficient(Map<String, String> labels, String note) {
        return new AnomalyFinding(labels, Status.INSUFFICIENT_DATA, Double.NaN, Direction.NONE, Optional.empty(),
                Optional.empty(), Optional.empty(), note);
    }
}
