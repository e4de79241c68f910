package dev.omcp.core.analysis.health;

import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.AnomalyKind;
import dev.omcp.core.analysis.anomaly.Direction;
import dev.omcp.core.analysis.anomaly.Evidence;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Scores a service from its signals. Stateless apart from the thresholds; thread-safe.
 *
 * <p>Per signal, the measure {@code m} (a higher one is worse) gets a status from the thresholds
 * ({@code m >= critical}: critical; {@code m >= degraded}: degraded; else healthy) and a score on a
 * piecewise-linear scale: 100 at 0, 80 at {@code degraded}, 40 at {@code critical}, 0 at
 * {@code critical + (critical - degraded)} and beyond. An anomaly in the harmful direction (any for
 * latency, errors, saturation; a drop for the request rate) raises a healthy signal to degraded: the
 * thresholds say "bad", the anomaly says "not normal for this service".
 *
 * <p>Overall: the status is the worst signal status; the score is the weighted mean of the signal
 * scores over the signals that returned data. Missing signals are named and left out of both,
 * never counted as zero; with no data at all the status is {@link HealthStatus#UNKNOWN} and there is
 * no score. When several readings of one signal arrive (several sources), the worst one counts.
 */
public final class HealthEvaluator {
    private final HealthThresholds thresholds;

    public HealthEvaluator(HealthThresholds thresholds) {
        this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
    }

    public HealthThresholds thresholds() {
        return thresholds;
    }

    /**
     * Judges one service.
     *
     * @param readings the values that came back (readings of disabled signals are ignored)
     * @param missing the signals that returned nothing, with why; an enabled signal with neither a
     *     reading nor an entry here is reported missing as "not measured"
     * @param anomalies anomaly verdicts on the signals, normal ones included
     */
    public HealthReport evaluate(String service, List<SignalReading> readings, List<MissingSignal> missing, List<SignalAnomaly> anomalies) {
        Map<HealthSignal, SignalReading> worst = new EnumMap<>(HealthSignal.class);
        for (SignalReading r : readings) {
            if (thresholds.of(r.signal()).isEmpty()) {
                continue;
            }
            worst.merge(r.signal(), r, (a, b) -> b.measure() > a.measure() ? b : a);
        }
        Map<HealthSignal, List<SignalAnomaly>> anomaliesBySignal = new EnumMap<>(HealthSignal.class);
        for (SignalAnomaly a : anomalies) {
            anomaliesBySignal.computeIfAbsent(a.signal(), k -> new ArrayList<>()).add(a);
        }

        List<SignalHealth> scored = new ArrayList<>();
        HealthStatus status = HealthStatus.HEALTHY;
        double weighted = 0;
        double weights = 0;
        for (Map.Entry<HealthSignal, SignalReading> e : worst.entrySet()) {
            SignalHealth h = score(e.getValue(), thresholds.of(e.getKey()).orElseThrow(),
                    anomaliesBySignal.getOrDefault(e.getKey(), List.of()));
            scored.add(h);
            status = status.worse(h.status());
            weighted += h.score() * h.weight();
            weights += h.weight();
        }

        Map<HealthSignal, MissingSignal> missingBySignal = new LinkedHashMap<>();
        for (MissingSignal m : missing) {
            if (!worst.containsKey(m.signal()) && thresholds.of(m.signal()).isPresent()) {
                missingBySignal.putIfAbsent(m.signal(), m);
            }
        }
        for (HealthSignal s : thresholds.bySignal().keySet()) {
            if (!worst.containsKey(s)) {
                missingBySignal.putIfAbsent(s, new MissingSignal(s, "not measured: no source returned " + s.wireName()));
            }
        }
        List<MissingSignal> missingList = List.copyOf(missingBySignal.values());

        List<String> drivers = new ArrayList<>();
        scored.forEach(h -> h.driver().ifPresent(drivers::add));
        if (scored.isEmpty()) {
            String note = service + ": health unknown, no signal returned data (" + missingList.size() + " missing: "
                    + names(missingList) + ")";
            return new HealthReport(service, HealthStatus.UNKNOWN, OptionalDouble.empty(), scored, missingList, drivers, anomalies, note);
        }
        double score = weighted / weights;
        StringBuilder note = new StringBuilder(String.format(Locale.ROOT, "%s is %s (score %.0f of 100 over %d signal%s)",
                service, status.wireName(), score, scored.size(), scored.size() == 1 ? "" : "s"));
        if (!drivers.isEmpty()) {
            List<String> clauses = new ArrayList<>();
            drivers.forEach(d -> clauses.add(withoutFinalStop(d)));
            note.append(": ").append(String.join("; ", clauses));
        }
        if (!missingList.isEmpty()) {
            note.append(". Missing, not counted: ").append(names(missingList));
        }
        return new HealthReport(service, status, OptionalDouble.of(score), scored, missingList, drivers, anomalies, note.toString());
    }

    private static SignalHealth score(SignalReading r, SignalThreshold t, List<SignalAnomaly> anomalies) {
        double m = r.measure();
        HealthStatus status = m >= t.critical() ? HealthStatus.CRITICAL : m >= t.degraded() ? HealthStatus.DEGRADED : HealthStatus.HEALTHY;
        // the histogram's largest bucket is the slowest its owners expected (Prometheus' default: 10 s, beyond the
        // default critical 2 s); a p99 beyond it cannot be placed against the thresholds, and it is no sign of health
        String reason = r.aboveLargestBucket()
                ? r.signal().wireName() + " is above the largest histogram bucket (reported as +Inf): too high to measure, "
                        + "judged critical"
                : switch (status) {
                    case CRITICAL -> describe(r) + " >= critical " + format(r.signal(), t.critical());
                    case DEGRADED -> describe(r) + " >= degraded " + format(r.signal(), t.degraded());
                    default -> describe(r) + " below degraded " + format(r.signal(), t.degraded());
                };
        for (SignalAnomaly a : anomalies) {
            if (a.finding().anomalous() && harmful(r.signal(), a.finding().direction())) {
                String anomaly = r.signal().wireName() + " anomalous: " + anomalyClause(r.signal(), a.finding());
                if (status == HealthStatus.HEALTHY) {
                    status = HealthStatus.DEGRADED;
                    reason = anomaly;
                } else {
                    reason = reason + "; " + anomaly;
                }
                break;
            }
        }
        return new SignalHealth(r.signal(), r.value(), m, status, scale(m, t), t.weight(), t, r.source(), reason);
    }

    /**
     * The anomaly in the signal's own unit. The detector's note speaks in the series' unit (a
     * latency "0.098 -> 0.953" in seconds), and next to "latency_p99 953 ms" that reads as a
     * second, contradicting number; so the levels are restated here ("98.2 ms -> 953 ms"). The
     * level is the anomaly's own, not the window's median, which a window longer than the anomaly
     * keeps at the normal level; a spike that has ended also says where the signal is now. A level
     * above the largest histogram bucket is said in words ("to above the largest histogram
     * bucket"). The detector's whole note stays in the answer's {@code anomalies[]}.
     */
    static String anomalyClause(HealthSignal signal, AnomalyFinding finding) {
        if (finding.evidence().isEmpty() || finding.kind().isEmpty() || finding.onset().isEmpty()
                || Double.isNaN(finding.evidence().get().anomalyLevel())) {
            return withoutFinalStop(finding.note());
        }
        Evidence e = finding.evidence().get();
        boolean up = finding.direction() == Direction.UP;
        AnomalyKind kind = finding.kind().get();
        String now = kind == AnomalyKind.SPIKE && !Double.isNaN(e.currentLevel())
                ? ", back at " + level(signal, e.currentLevel()) + " now" : "";
        return String.format(Locale.ROOT, "%s %s from %s to %s since %s%s (%.1f sigma %s the %s baseline)",
                kind.wireName(), up ? "up" : "down", level(signal, Double.isFinite(e.expectedLevel()) ? e.expectedLevel() : e.baselineMedian()),
                level(signal, e.anomalyLevel()), finding.onset().get(), now, finding.score(), up ? "above" : "below", e.method());
    }

    private static String level(HealthSignal signal, double seriesValue) {
        if (seriesValue == Double.POSITIVE_INFINITY) {
            return "above the largest histogram bucket";
        }
        double v = signal.fromSeries(seriesValue);
        return switch (signal) {
            case LATENCY_P99 -> (Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v)) + " ms";
            case REQUEST_RATE_DROP -> String.format(Locale.ROOT, "%.4g requests/s", v);
            default -> String.format(Locale.ROOT, "%.3g%%", v * 100);
        };
    }

    private static boolean harmful(HealthSignal signal, Direction direction) {
        return signal == HealthSignal.REQUEST_RATE_DROP ? direction == Direction.DOWN : direction == Direction.UP;
    }

    /** 100 at 0, 80 at degraded, 40 at critical, 0 at critical + (critical - degraded). */
    static double scale(double m, SignalThreshold t) {
        double d = t.degraded();
        double c = t.critical();
        if (m <= 0) {
            return 100;
        }
        if (m < d) {
            return 100 - 20 * m / d;
        }
        if (m < c) {
            return 80 - 40 * (m - d) / (c - d);
        }
        double zeroAt = c + (c - d);
        return m >= zeroAt ? 0 : 40 - 40 * (m - c) / (zeroAt - c);
    }

    private static String describe(SignalReading r) {
        if (r.signal() == HealthSignal.REQUEST_RATE_DROP) {
            // the drop measure is floored at 0, so traffic above usual would read "down 0%"
            double usual = r.baseline().getAsDouble();
            double change = usual > 0 ? (r.value() - usual) / usual : 0;
            return String.format(Locale.ROOT, "request rate %.4g requests/s vs usual %.4g (%s %.0f%%)", r.value(), usual,
                    change < 0 ? "down" : "up", Math.abs(change) * 100);
        }
        return r.signal().wireName() + " " + format(r.signal(), r.value());
    }

    private static String format(HealthSignal s, double v) {
        return s.unit().equals("ms") ? String.format(Locale.ROOT, "%.0f ms", v) : String.format(Locale.ROOT, "%.3g%%", v * 100);
    }

    /**
     * A clause to join with "; " or to follow with ". ": the detector's notes are whole sentences,
     * and their final stop would otherwise read ".;" or "..".
     */
    static String withoutFinalStop(String sentence) {
        String s = sentence.strip();
        while (s.endsWith(".")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        return s;
    }

    /**
     * {@code error_rate, request_rate_drop (the service exports no HTTP request counter ...), cpu (...)}:
     * signals missing for the same reason share it, so a long reason is said once (each signal's own
     * wording stays in {@code missing[]}).
     */
    static String names(List<MissingSignal> missing) {
        Map<String, List<String>> byWhy = new LinkedHashMap<>();
        for (MissingSignal m : missing) {
            // "no source returned cpu_utilization for 'x': it needs ..." and the memory one differ only before the colon
            int colon = m.reason().indexOf(": ");
            String why = missing.size() > 1 && m.reason().startsWith("no source returned ") && colon > 0 && m.reason().indexOf(';') < 0
                    ? m.reason().substring(colon + 2) : m.reason();
            byWhy.computeIfAbsent(why, k -> new ArrayList<>()).add(m.signal().wireName());
        }
        List<String> n = new ArrayList<>();
        byWhy.forEach((why, signals) -> n.add(String.join(", ", signals) + " (" + why + ")"));
        return String.join("; ", n);
    }
}
