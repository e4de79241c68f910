package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.RobustStatistics;
import dev.omcp.core.analysis.health.HealthSignal;
import dev.omcp.core.analysis.health.MissingSignal;
import dev.omcp.core.analysis.health.SignalAnomaly;
import dev.omcp.core.analysis.health.SignalReading;
import dev.omcp.sdk.query.Series;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Turns the curated metric series of one service into the inputs of the health evaluator: a
 * current reading per signal (in the unit its thresholds are written in), the signals that
 * returned nothing with the reason, and the anomaly verdicts per signal.
 *
 * <p>The current value is the median of the last {@value #RECENT_MINUTES} minutes of the window
 * (the whole window when shorter): one scrape's noise does not flip a status, and a change that
 * began minutes ago is not averaged away by a long window. A p99 latency of {@code +Inf} (above the
 * histogram's largest bucket) counts as the slowest value, not as a gap: when it is the median the
 * reading is "too high to measure", which the evaluator judges critical. The request-rate drop compares that
 * value with the median of the baseline before the window (the hour or four windows before it, not
 * the days of history a long window also reads).
 */
final class HealthReadings {
    static final int RECENT_MINUTES = 5;
    /**
     * The fewest requests the usual rate must bring in the recent stretch for a drop to be judged.
     * A service that serves a request every minute or so has rate points of 0 and 1/60 by chance,
     * and the median of a quiet five minutes read as "down 100 %", critical, on a call in twenty.
     * Of 10 expected requests, losing the 80 % that is critical happens by chance less than once in
     * 300 (Poisson); fewer leave the signal missing, with the usual rate named.
     */
    static final int MIN_EXPECTED_REQUESTS = 10;
    /** How far below zero a reading may be and still be float rounding of zero (in the signal's unit). */
    static final double ROUNDING_NOISE = 1e-9;

    /** What the evaluator needs. */
    record Inputs(List<SignalReading> readings, List<MissingSignal> missing, List<SignalAnomaly> anomalies) {
        Inputs {
            readings = List.copyOf(readings);
            missing = List.copyOf(missing);
            anomalies = List.copyOf(anomalies);
        }
    }

    private HealthReadings() {}

    /** The curated metric a health signal is read from. */
    static String metricOf(HealthSignal signal) {
        return signal.metric();
    }

    static Inputs from(String service, List<HealthSignal> signals, MetricBatch batch, List<AnomalyScan.Verdict> verdicts,
            AnalysisWindow window) {
        List<SignalReading> readings = new ArrayList<>();
        List<MissingSignal> missing = new ArrayList<>();
        List<SignalAnomaly> anomalies = new ArrayList<>();
        long windowStart = window.windowStart().toEpochMilli();
        // not the whole range: for a long window it holds two days of history for the seasonal baseline
        long baselineStart = window.baselineStart().toEpochMilli();
        Duration recent = window.window().compareTo(Duration.ofMinutes(RECENT_MINUTES)) < 0 ? window.window()
                : Duration.ofMinutes(RECENT_MINUTES);
        long recentStart = window.range().end().toEpochMilli() - recent.toMillis();
        for (HealthSignal signal : signals) {
            String metric = metricOf(signal);
            MetricBatch.Request request = new MetricBatch.Request(service, metric);
            int before = readings.size();
            boolean resolved = false;
            boolean anySeries = false;
            Set<String> problems = new LinkedHashSet<>();
            for (MetricBatch.Answer answer : batch.answersTo(request)) {
                resolved |= !answer.result().resolvedLabel().isEmpty();
                for (Series series : answer.result().series()) {
                    anySeries = true;
                    // a p99 of +Inf lies above the histogram's largest bucket: the slowest value of all, not a gap,
                    // so it takes part in the median (as a gap, an incident too slow to measure read as healthy)
                    boolean plusInfinityIsSlow = signal == HealthSignal.LATENCY_P99;
                    OptionalDouble current = median(series, recentStart, Long.MAX_VALUE, plusInfinityIsSlow);
                    if (current.isEmpty()) {
                        problems.add(answer.source() + " has no " + metric + " value in the last " + Durations.format(recent));
                        continue;
                    }
                    if (current.getAsDouble() == Double.POSITIVE_INFINITY) {
                        readings.add(SignalReading.latencyAboveLargestBucket(answer.source()));
                        continue;
                    }
                    double value = roundingNoiseAsZero(signal.fromSeries(current.getAsDouble()));
                    if (value < 0) {
                        problems.add(answer.source() + " returned a negative " + metric + " (" + value + ")");
                        continue;
                    }
                    if (signal == HealthSignal.REQUEST_RATE_DROP) {
                        OptionalDouble usual = median(series, baselineStart, windowStart);
                        if (usual.isEmpty() || usual.getAsDouble() <= 0) {
                            problems.add(answer.source() + " has no traffic in the baseline before the window to compare with");
                            continue;
                        }
                        double expectedRequests = usual.getAsDouble() * recent.toMillis() / 1000.0;
                        if (expectedRequests < MIN_EXPECTED_REQUESTS) {
                            problems.add(String.format(Locale.ROOT, "%s usually serves %.3g requests/s, about %.0f in the last %s: too"
                                    + " few to tell a drop from chance (at least %d are needed)", answer.source(), usual.getAsDouble(),
                                    expectedRequests, Durations.format(recent), MIN_EXPECTED_REQUESTS));
                            continue;
                        }
                        readings.add(SignalReading.requestRate(value, usual.getAsDouble(), answer.source()));
                    } else {
                        readings.add(SignalReading.of(signal, value, answer.source()));
                    }
                }
            }
            for (MetricBatch.Failure f : batch.failuresOf(request)) {
                problems.add(f.source() + " failed (" + f.kind().name().toLowerCase(Locale.ROOT) + "): " + f.message());
            }
            if (readings.size() == before) {
                if (!anySeries && problems.isEmpty()) {
                    problems.add(resolved ? noSeries(signal, service, metric)
                            : "no metrics source knows '" + service + "'");
                }
                missing.add(new MissingSignal(signal, String.join("; ", problems)));
            }
            for (AnomalyScan.Verdict v : verdicts) {
                if (v.service().equals(service) && v.metric().equals(metric)) {
                    anomalies.add(new SignalAnomaly(signal, v.finding()));
                }
            }
        }
        return new Inputs(readings, missing, anomalies);
    }

    /**
     * A reading a hair below zero is zero: a ratio a template computes as {@code 1 - ok / total} comes
     * back as -2.2e-16 when every request succeeded, and naming that "a negative error_rate" would drop
     * the signal of a service with no errors at all. Anything further below zero is a bad answer.
     */
    static double roundingNoiseAsZero(double value) {
        return value < 0 && value >= -ROUNDING_NOISE ? 0 : value;
    }

    private static String noSeries(HealthSignal signal, String service, String metric) {
        String why = switch (signal) {
            case CPU, MEMORY -> ": it needs the containers' limits (cAdvisor container_spec_* or kube-state-metrics "
                    + "kube_pod_container_resource_limits for containers named like the service), or a '" + metric
                    + "' template in the source's metrics: settings";
            case LATENCY_P99 -> ": the service exports no request-duration histogram the curated metric knows";
            default -> ": the service exports no HTTP request counter the curated metric knows";
        };
        return "no source returned " + metric + " for '" + service + "'" + why;
    }

    /** The median of the finite values with {@code from <= t < to}. */
    static OptionalDouble median(Series series, long from, long to) {
        return median(series, from, to, false);
    }

    /**
     * The median of the values with {@code from <= t < to}: the finite ones, and {@code +Inf} too when
     * {@code withPlusInfinity} (it sorts above every finite value, so more than half of them at
     * {@code +Inf} make the median {@code +Inf}).
     */
    static OptionalDouble median(Series series, long from, long to, boolean withPlusInfinity) {
        double[] values = new double[series.size()];
        int n = 0;
        for (int i = 0; i < series.size(); i++) {
            long t = series.timeAt(i);
            double v = series.valueAt(i);
            if (t >= from && t < to && (Double.isFinite(v) || (withPlusInfinity && v == Double.POSITIVE_INFINITY))) {
                values[n++] = v;
            }
        }
        if (n == 0) {
            return OptionalDouble.empty();
        }
        Arrays.sort(values, 0, n);
        // of an even count the mean of the middle two: +Inf when one of them is, so half the points beyond the
        // largest bucket already count as beyond it (the p99 of half the minutes is too high to measure)
        return OptionalDouble.of(n % 2 == 1 ? values[n / 2] : RobustStatistics.midpoint(values[n / 2 - 1], values[n / 2]));
    }
}
