package dev.omcp.core.analysis.postmortem;

import dev.omcp.core.analysis.history.HistoryRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Collapses anomaly-history rows into {@link AnomalyEpisode}s: the history holds one row per
 * judgement (every {@code get_service_health} or {@code detect_anomalies} call adds one per
 * signal), a timeline wants one row per thing that went wrong, dated by when it began.
 *
 * <p>Rules, per (service, signal):
 * <ul>
 *   <li>Normal rows make no episode.</li>
 *   <li>Anomalous rows with an onset, in onset order, belong to one episode while each onset is at
 *       most {@link #ONSET_TOLERANCE} after the previous one. Two judgements of one deviation rarely
 *       date it identically: the detector's onset is a point of the query's step grid, which is
 *       anchored at the call's "now" (30 s apart at the default 15 min window, so two calls may
 *       differ by a step); its walk back over the points that already deviated stops where noise
 *       first dips under half the threshold (a few steps either way); and a ramp's onset is a
 *       fitted change point that moves as the ramp grows. Five minutes covers that with room,
 *       while two real episodes of one signal need a recovery and a new deviation in between,
 *       which the detector's dwell rule does not fit into five minutes (and within one judgement
 *       it dates only the first of several runs anyway).</li>
 *   <li>Anomalous rows without an onset (recorded by something that did not date them) are
 *       grouped in recording order until a normal row of the same signal ends the episode; its
 *       onset is the first recorded time and {@link AnomalyEpisode#onsetKnown()} is false.</li>
 * </ul>
 * Episodes are ordered by onset, earliest first (then the strongest: a level above the largest
 * histogram bucket, then the highest peak; then service and signal). An episode's peak is its
 * judgement above the largest bucket when it has one (that score is a lower bound, see
 * {@link HistoryRow#STRONGEST_FIRST}), else its highest score. Stateless.
 */
public final class AnomalyEpisodes {
    /** How far apart the onsets of one episode's judgements may be (see the class comment for why). */
    public static final Duration ONSET_TOLERANCE = Duration.ofMinutes(5);

    private AnomalyEpisodes() {}

    /** The episodes the rows make, earliest onset first, the highest peak first among those of one onset. */
    public static List<AnomalyEpisode> of(List<HistoryRow> rows) {
        Map<String, List<HistoryRow>> bySignal = new LinkedHashMap<>();
        for (HistoryRow r : rows) {
            bySignal.computeIfAbsent(r.service() + "\u0000" + r.signal(), k -> new ArrayList<>()).add(r);
        }
        List<AnomalyEpisode> out = new ArrayList<>();
        for (List<HistoryRow> series : bySignal.values()) {
            dated(series, out);
            undated(series, out);
        }
        // at one onset the strongest deviation leads: it is the one a reader should look at first; a level above the
        // largest histogram bucket is at least as strong as any measured one, whatever its lower-bound score
        out.sort(Comparator.comparing(AnomalyEpisode::onset).thenComparing(e -> !e.levelAboveLargestBucket())
                .thenComparing(Comparator.comparingDouble(AnomalyEpisode::peakScore).reversed())
                .thenComparing(AnomalyEpisode::service).thenComparing(AnomalyEpisode::signal).thenComparing(AnomalyEpisode::lastSeen));
        return out;
    }

    /** Anomalous rows with an onset, chained while consecutive onsets agree within the tolerance. */
    private static void dated(List<HistoryRow> series, List<AnomalyEpisode> out) {
        List<HistoryRow> dated = new ArrayList<>(series.stream().filter(r -> r.anomalous() && r.onset().isPresent()).toList());
        dated.sort(Comparator.comparing((HistoryRow r) -> r.onset().orElseThrow()).thenComparing(HistoryRow::at));
        List<HistoryRow> current = new ArrayList<>();
        Instant previousOnset = null;
        for (HistoryRow r : dated) {
            Instant onset = r.onset().orElseThrow();
            if (previousOnset != null && Duration.between(previousOnset, onset).compareTo(ONSET_TOLERANCE) > 0) {
                out.add(episode(current, true));
                current = new ArrayList<>();
            }
            current.add(r);
            previousOnset = onset;
        }
        if (!current.isEmpty()) {
            out.add(episode(current, true));
        }
    }

    /** Anomalous rows without an onset, in recording order, an episode ending at each normal row. */
    private static void undated(List<HistoryRow> series, List<AnomalyEpisode> out) {
        List<HistoryRow> ordered = new ArrayList<>(series.stream().filter(r -> r.onset().isEmpty()).toList());
        ordered.sort(Comparator.comparing(HistoryRow::at));
        List<HistoryRow> current = new ArrayList<>();
        for (HistoryRow r : ordered) {
            if (r.anomalous()) {
                current.add(r);
            } else if (!current.isEmpty()) {
                out.add(episode(current, false));
                current = new ArrayList<>();
            }
        }
        if (!current.isEmpty()) {
            out.add(episode(current, false));
        }
    }

    private static AnomalyEpisode episode(List<HistoryRow> rows, boolean dated) {
        HistoryRow first = rows.getFirst();
        Instant onset = dated ? first.onset().orElseThrow() : first.at();
        Instant lastSeen = first.at();
        HistoryRow peak = first;
        for (HistoryRow r : rows) {
            if (r.at().isAfter(lastSeen)) {
                lastSeen = r.at();
            }
            // a judgement above the largest bucket is the peak even when a measured one scored higher than its lower bound
            if (HistoryRow.STRONGEST_FIRST.compare(r, peak) < 0) {
                peak = r;
            }
        }
        Optional<String> kind = peak.kind();
        return new AnomalyEpisode(first.service(), first.signal(), onset, dated, lastSeen, peak.score(), kind, rows.size(),
                peak.levelAboveLargestBucket());
    }
}
