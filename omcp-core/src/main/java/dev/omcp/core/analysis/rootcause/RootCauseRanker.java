package dev.omcp.core.analysis.rootcause;

import dev.omcp.core.analysis.blast.BlastRadiusWalker;
import dev.omcp.core.analysis.topology.TopologyGraph;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Ranks anomalous services by how likely each is the root cause, from what the gateway knows:
 * the topology, when each anomaly began and how strong it is. Stateless and thread-safe.
 *
 * <p>Score = 0.45 x dependents + 0.35 x onset + 0.20 x severity, each factor in 0..1:
 * <ul>
 *   <li><b>dependents</b>: the share of the other anomalous services that depend on this one
 *       (that lie in its blast radius, see {@link BlastRadiusWalker}: callers, dependents and
 *       their callers, transitively). A service many anomalous services depend on is the likelier
 *       cause; a service that depends on nothing anomalous but is depended on by all scores 1.</li>
 *   <li><b>onset</b>: {@code (latest onset - this onset) / (latest - earliest)}: the first to deviate
 *       scores 1, the last 0; all at once: 1 each.</li>
 *   <li><b>severity</b>: this service's strongest anomaly score over the strongest of all, each
 *       counted up to {@link #SEVERITY_SATURATION} sigmas: beyond that a deviation is unmistakable,
 *       and more sigmas say how quiet its baseline was rather than how badly the service fares (a
 *       request rate or a raw metric of exact zeros has the 1e-9 scale floor, so any move off it is
 *       millions of sigmas; so had an error rate, before its minimum change floored the scale).
 *       Uncapped, that one service took the whole severity weight and every other service almost
 *       none, enough to rank a later, dependent service above the one that began first.</li>
 * </ul>
 * Without a topology (or when no anomalous service is in it) the dependents factor is unavailable
 * and its weight is shared out proportionally (onset 0.636, severity 0.364); the note says so.
 * Ties (scores within {@link #SCORE_RESOLUTION}, so a rounding of the sum decides none) go to the earlier onset,
 * then the name.
 */
public final class RootCauseRanker {
    public static final double DEPENDENTS_WEIGHT = 0.45;
    public static final double ONSET_WEIGHT = 0.35;
    public static final double SEVERITY_WEIGHT = 0.20;
    /** Sigmas at which an anomaly counts as fully severe (see the class comment for why there is a cap). */
    public static final double SEVERITY_SATURATION = 20;
    /** Scores closer than this are a tie (far below the 0.001 the answer shows, far above a sum's rounding). */
    static final double SCORE_RESOLUTION = 1e-9;
    /** How deep the walk for dependents goes: far beyond any real call chain, yet bounded. */
    private static final int MAX_HOPS = 100;

    private final BlastRadiusWalker walker = new BlastRadiusWalker();

    /** Ranks the services; the topology is empty when no topology source answered. */
    public RootCauseRanking rank(List<AnomalousService> anomalous, Optional<TopologyGraph> topology) {
        Map<String, AnomalousService> byName = new LinkedHashMap<>();
        for (AnomalousService a : anomalous) {
            byName.merge(a.service(), a, RootCauseRanker::combine);
        }
        List<AnomalousService> services = new ArrayList<>(byName.values());
        if (services.isEmpty()) {
            return new RootCauseRanking(List.of(), false, List.of(), "no anomalous services to rank");
        }

        Map<String, List<String>> dependents = new LinkedHashMap<>();
        List<String> notInTopology = new ArrayList<>();
        boolean topologyUsed = false;
        if (topology.isPresent()) {
            TopologyGraph g = topology.get();
            Map<String, Set<String>> idsOf = new LinkedHashMap<>();
            for (AnomalousService s : services) {
                List<String> ids = g.resolve(s.service());
                if (ids.isEmpty()) {
                    notInTopology.add(s.service());
                } else {
                    idsOf.put(s.service(), new HashSet<>(ids));
                }
            }
            topologyUsed = !idsOf.isEmpty() && services.size() > 1;
            if (topologyUsed) {
                for (Map.Entry<String, Set<String>> s : idsOf.entrySet()) {
                    // the whole walk, not a listing capped at some thousand nodes: a service with many pods
                    // and containers would push a dependent a few calls away out of the list
                    Set<String> affected = new HashSet<>(walker.reached(g, List.copyOf(s.getValue()), MAX_HOPS));
                    List<String> deps = new ArrayList<>();
                    for (Map.Entry<String, Set<String>> other : idsOf.entrySet()) {
                        if (!other.getKey().equals(s.getKey()) && other.getValue().stream().anyMatch(affected::contains)
                                && other.getValue().stream().noneMatch(s.getValue()::contains)) {
                            deps.add(other.getKey());
                        }
                    }
                    dependents.put(s.getKey(), deps);
                }
            }
        }

        Instant earliest = services.stream().map(AnomalousService::onset).min(Comparator.naturalOrder()).orElseThrow();
        Instant latest = services.stream().map(AnomalousService::onset).max(Comparator.naturalOrder()).orElseThrow();
        double spread = Duration.between(earliest, latest).toMillis();
        double maxSeverity = services.stream().mapToDouble(RootCauseRanker::countedSeverity).max().orElseThrow();
        double others = services.size() - 1;
        double wDep = topologyUsed ? DEPENDENTS_WEIGHT : 0;
        double total = wDep + ONSET_WEIGHT + SEVERITY_WEIGHT;
        double wOnset = ONSET_WEIGHT / total;
        double wSeverity = SEVERITY_WEIGHT / total;
        wDep = wDep / total;

        record Scored(AnomalousService service, double score, List<Factor> factors, List<String> deps) {}
        List<Scored> scored = new ArrayList<>();
        for (AnomalousService s : services) {
            List<Factor> factors = new ArrayList<>();
            List<String> deps = dependents.getOrDefault(s.service(), List.of());
            if (topologyUsed) {
                double v = deps.size() / others;
                String detail = notInTopology.contains(s.service())
                        ? "not in the topology"
                        : String.format(Locale.ROOT, "%d of %d other anomalous services depend on it", deps.size(), (int) others);
                factors.add(new Factor("dependents", v, wDep, v * wDep, detail));
            }
            double onset = spread == 0 ? 1 : Duration.between(s.onset(), latest).toMillis() / spread;
            String onsetDetail = s.onset().equals(earliest)
                    ? (spread == 0 ? "all began together at " + s.onset() : "first to deviate, at " + s.onset())
                    : String.format(Locale.ROOT, "began at %s, %s after the first", s.onset(), human(Duration.between(earliest, s.onset())));
            factors.add(new Factor("onset", onset, wOnset, onset * wOnset, onsetDetail));
            double sev = countedSeverity(s) / maxSeverity;
            factors.add(new Factor("severity", sev, wSeverity, sev * wSeverity, String.format(Locale.ROOT,
                    "strongest anomaly %s sigma%s (max %s)", sigmas(s.severity()),
                    s.severity() > SEVERITY_SATURATION ? ", counted as " + sigmas(SEVERITY_SATURATION) : "", sigmas(maxSeverity))));
            double score = factors.stream().mapToDouble(Factor::contribution).sum();
            scored.add(new Scored(s, score, factors, deps));
        }
        scored.sort(Comparator.comparingLong((Scored x) -> -comparable(x.score())).thenComparing(x -> x.service().onset())
                .thenComparing(x -> x.service().service()));

        List<RankedCause> ranking = new ArrayList<>();
        for (int i = 0; i < scored.size(); i++) {
            Scored x = scored.get(i);
            StringBuilder why = new StringBuilder(x.service().service()).append(": ");
            for (int k = 0; k < x.factors().size(); k++) {
                Factor f = x.factors().get(k);
                why.append(k == 0 ? "" : "; ").append(f.detail()).append(String.format(Locale.ROOT, " (+%.2f)", f.contribution()));
            }
            if (!x.service().signals().isEmpty()) {
                why.append("; anomalous: ").append(String.join(", ", x.service().signals()));
            }
            ranking.add(new RankedCause(i + 1, x.service().service(), x.score(), x.factors(), x.deps(), why.toString()));
        }
        String note;
        if (services.size() == 1) {
            note = "one anomalous service: it is the only candidate";
        } else if (topologyUsed) {
            note = "ranked by dependents in the topology (0.45), onset (0.35) and severity (0.20)"
                    + (notInTopology.isEmpty() ? "" : "; not in the topology: " + String.join(", ", notInTopology));
        } else {
            note = topology.isEmpty()
                    ? "no topology available: ranked by onset and severity only"
                    : "none of the anomalous services is in the topology: ranked by onset and severity only";
        }
        return new RootCauseRanking(ranking, topologyUsed, notInTopology, note);
    }

    /**
     * The score as the ranking compares it: in steps of {@link #SCORE_RESOLUTION}. Scores equal in exact arithmetic
     * come out of the weighted sum a rounding apart (onset 1 and 9 of 20 sigma summed to 0.7999999999999998, onset 0.8
     * and 16 of 20 to 0.8), and compared to the bit such a tie went to whichever sum rounded up, not to the earlier onset.
     */
    private static long comparable(double score) {
        return Math.round(score / SCORE_RESOLUTION);
    }

    /** The severity the factor compares: the strongest score, at most {@link #SEVERITY_SATURATION}. */
    private static double countedSeverity(AnomalousService s) {
        return Math.min(s.severity(), SEVERITY_SATURATION);
    }

    /** {@code 6.0}, or {@code 2.00e+07} for a score no one reads digit by digit. */
    private static String sigmas(double v) {
        return String.format(Locale.ROOT, v < 1e5 ? "%.1f" : "%.2e", v);
    }

    private static AnomalousService combine(AnomalousService a, AnomalousService b) {
        List<String> signals = new ArrayList<>(a.signals());
        b.signals().stream().filter(s -> !signals.contains(s)).forEach(signals::add);
        return new AnomalousService(a.service(), a.onset().isBefore(b.onset()) ? a.onset() : b.onset(),
                Math.max(a.severity(), b.severity()), signals);
    }

    private static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 120) {
            return s + "s";
        }
        if (s < 7200) {
            return s / 60 + "m";
        }
        return s / 3600 + "h";
    }
}
