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
 * @param meanScore the mean of its recorded anomaly scores in the window
 * @param peakScore the highest
 * @param samples how many scores were recorded
 * @param anomalousSamples how many of them were anomalies
 */
public record ContributingSignal(String service, String signal, double meanScore, double peakScore, int samples, int anomalousSamples) {
    public ContributingSignal {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        if (samples < 1) {
            throw new IllegalArgumentException("a contributing signal needs at least one sample");
        }
    }

    /** Groups history rows by (service, signal), highest mean score first. */
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
            for (HistoryRow r : g) {
                sum += r.score();
                peak = Math.max(peak, r.score());
                anomalous += r.anomalous() ? 1 : 0;
            }
            out.add(new ContributingSignal(g.getFirst().service(), g.getFirst().signal(), sum / g.size(), peak, g.size(), anomalous));
        }
        out.sort(Comparator.comparingDouble(ContributingSignal::meanScore).reversed()
                .thenComparing(ContributingSignal::service).thenComparing(ContributingSignal::signal));
        return out;
    }
}
