package dev.omcp.core.analysis.postmortem;

import dev.omcp.core.analysis.history.HistoryRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A signal that moved during the incident window.
 *
 * @param service the service
 * @param signal the signal
 * @param meanScore the mean of its recorded anomaly scores in the window (a lower bound when
 *     {@link #levelAboveLargestBucket()})
 * @param peakScore the highest
 * @param samples how many scores were recorded
 * @param anomalousSamples how many of them were anomalies
 * @param samplesAboveLargestBucket how many of those anomalies took a latency above its histogram's
 *     largest bucket ({@code +Inf}), whose score is only a lower bound
 */
public record ContributingSignal(String service, String signal, double meanScore, double peakScore, int samples, int anomalousSamples,
        int samplesAboveLargestBucket) {
    /**
     * Strongest first: signals with a level above the largest histogram bucket before every signal
     * whose scores were all measured, because their mean is only a lower bound (a {@code +Inf} p99 is
     * scored at least 20 sigma, and a 20x slower p99 on a quiet baseline would otherwise outrank a
     * p99 too high to measure), as {@code detect_anomalies} lists them; then highest mean score,
     * then by name.
     */
    public static final Comparator<ContributingSignal> STRONGEST_FIRST = Comparator
            .comparing((ContributingSignal s) -> !s.levelAboveLargestBucket())
            .thenComparing(Comparator.comparingDouble(ContributingSignal::meanScore).reversed())
            .thenComparing(ContributingSignal::service).thenComparing(ContributingSignal::signal);

    public ContributingSignal {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        if (samples < 1) {
            throw new IllegalArgumentException("a contributing signal needs at least one sample");
        }
        if (samplesAboveLargestBucket < 0 || samplesAboveLargestBucket > anomalousSamples) {
            throw new IllegalArgumentException("samples above the largest histogram bucket must be between 0 and the " + anomalousSamples
                    + " anomalous samples of " + signal + " of " + service + ", got " + samplesAboveLargestBucket);
        }
    }

    /** A signal whose scores were all measured, none a lower bound. */
    public ContributingSignal(String service, String signal, double meanScore, double peakScore, int samples, int anomalousSamples) {
        this(service, signal, meanScore, peakScore, samples, anomalousSamples, 0);
    }

    /** Whether some of its anomalies were above the largest histogram bucket, so its scores are lower bounds. */
    public boolean levelAboveLargestBucket() {
        return samplesAboveLargestBucket > 0;
    }

    /** Groups history rows by (service, signal), strongest first ({@link #STRONGEST_FIRST}). */
    public static List<ContributingSignal> fromHistory(List<HistoryRow> rows) {
        Map<String, List<HistoryRow>> groups = new LinkedHashMap<>();
        for (HistoryRow r : rows) {
            groups.computeIfAbsent(r.service() + "\u0000" + r.signal(), k -> new ArrayList<>()).add(r);
        }
        List<ContributingSignal> out = new ArrayList<>();
        for (List<HistoryRow> g : groups.values()) {
            double sum = 0;
            double peak = 0;
            int anomalous = 0;
            int aboveBucket = 0;
            for (HistoryRow r : g) {
                sum += r.score();
                peak = Math.max(peak, r.score());
                anomalous += r.anomalous() ? 1 : 0;
                aboveBucket += r.levelAboveLargestBucket() ? 1 : 0;
            }
            out.add(new ContributingSignal(g.getFirst().service(), g.getFirst().signal(), sum / g.size(), peak, g.size(), anomalous,
                    aboveBucket));
        }
        out.sort(STRONGEST_FIRST);
        return out;
    }
}
