package dev.omcp.benchmarks.analysis;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.DetectionSettings;
import dev.omcp.core.analysis.anomaly.MetricKind;
import dev.omcp.sdk.query.Series;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The anomaly detector's share of a {@code get_service_health} call: the five signals such a call
 * judges by default (a 15 minute window after an hour's baseline at the finest 30 s step, 150 points
 * each), and one seasonal series (two days before a 2 h window, about a thousand points) for the
 * longer windows. All generated from fixed seeds; {@code healthSignals} has a step in its latency.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class AnomalyDetectionBenchmark {
    private static final long STEP_MILLIS = 30_000;
    private static final long END = Instant.parse("2026-11-29T12:00:00Z").toEpochMilli();

    private final AnomalyDetector detector = new AnomalyDetector();
    private final List<Series> health = new ArrayList<>();
    private final List<DetectionSettings> healthSettings = new ArrayList<>();
    private Series seasonal;
    private DetectionSettings seasonalSettings;

    @Setup
    public void setUp() {
        Random rnd = new Random(7);
        int n = 150;
        double[] latency = noise(rnd, n, 0.120, 0.010);
        for (int i = n - 12; i < n; i++) {
            latency[i] += 0.200;
        }
        add(latency, MetricKind.LATENCY);
        double[] errors = new double[n];
        for (int i = 0; i < n; i++) {
            errors[i] = rnd.nextInt(20) == 0 ? 0.001 * rnd.nextInt(5) : 0;
        }
        add(errors, MetricKind.ERRORS);
        add(noise(rnd, n, 42, 3), MetricKind.THROUGHPUT);
        add(noise(rnd, n, 0.35, 0.04), MetricKind.SATURATION);
        add(noise(rnd, n, 0.60, 0.01), MetricKind.SATURATION);

        long seasonStep = 210_000;
        int m = (int) (Duration.ofHours(50).toMillis() / seasonStep);
        double[] daily = new double[m];
        for (int i = 0; i < m; i++) {
            double phase = 2 * Math.PI * ((END - (m - 1 - i) * seasonStep) % 86_400_000L) / 86_400_000.0;
            daily[i] = 100 + 40 * Math.sin(phase) + rnd.nextGaussian() * 4;
        }
        seasonal = new Series(Map.of("service", "checkout"), times(m, seasonStep), daily);
        seasonalSettings = DetectionSettings.of(MetricKind.THROUGHPUT).withWindow(Duration.ofHours(2)).withSeason(Duration.ofDays(1));
    }

    private void add(double[] values, MetricKind kind) {
        health.add(new Series(Map.of("service", "checkout"), times(values.length, STEP_MILLIS), values));
        healthSettings.add(DetectionSettings.of(kind));
    }

    private static double[] noise(Random rnd, int n, double level, double sigma) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = Math.max(0, level + rnd.nextGaussian() * sigma);
        }
        return x;
    }

    private static long[] times(int n, long step) {
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = END - (n - 1 - i) * step;
        }
        return t;
    }

    /** The five signals of one health call, judged one after the other as the tool does. */
    @Benchmark
    public int healthSignals() {
        int anomalous = 0;
        for (int i = 0; i < health.size(); i++) {
            AnomalyFinding f = detector.detect(health.get(i), healthSettings.get(i));
            anomalous += f.anomalous() ? 1 : 0;
        }
        return anomalous;
    }

    /** One seasonal series of about a thousand points. */
    @Benchmark
    public AnomalyFinding seasonalSeries() {
        return detector.detect(seasonal, seasonalSettings);
    }
}
