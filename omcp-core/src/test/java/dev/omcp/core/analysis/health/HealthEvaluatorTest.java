package dev.omcp.core.analysis.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.DetectionSettings;
import dev.omcp.core.analysis.anomaly.MetricKind;
import dev.omcp.sdk.query.Series;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HealthEvaluatorTest {
    private final HealthEvaluator evaluator = new HealthEvaluator(HealthThresholds.defaults());

    @Test
    void nothingReturnedData_isUnknownWithoutAScoreAndNamesEveryMissingSignal() {
        HealthReport r = evaluator.evaluate("checkout", List.of(),
                List.of(new MissingSignal(HealthSignal.ERROR_RATE, "source prometheus timed out")), List.of());
        assertThat(r.status()).isEqualTo(HealthStatus.UNKNOWN);
        assertThat(r.score()).isEmpty();
        assertThat(r.missing()).extracting(MissingSignal::signal).containsExactlyInAnyOrder(HealthSignal.values());
        assertThat(r.missing()).filteredOn(m -> m.signal() == HealthSignal.ERROR_RATE)
                .extracting(MissingSignal::reason).containsExactly("source prometheus timed out");
        JsonObject json = r.toJson();
        assertThat(json.getString("status")).isEqualTo("unknown");
        assertThat(json.containsKey("score")).as("no data is no score, never 0").isFalse();
        assertThat(r.note()).contains("no signal returned data");
    }

    @Test
    void missingSignals_areNamedAndNotCountedAsZero() {
        HealthReport r = evaluator.evaluate("checkout", List.of(SignalReading.of(HealthSignal.ERROR_RATE, 0.0, "prom")),
                List.of(), List.of());
        assertThat(r.status()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(r.score()).hasValue(100.0);
        assertThat(r.missing()).hasSize(4);
        assertThat(r.note()).contains("Missing, not counted");
    }

    @Test
    void statusIsTheWorstSignal_andScoreIsTheWeightedMeanOverSignalsWithData() {
        HealthReport r = evaluator.evaluate("api", List.of(
                SignalReading.of(HealthSignal.ERROR_RATE, 0.03, "prom"),       // degraded: 80 - 40 * 0.5 = 60, weight 3
                SignalReading.of(HealthSignal.LATENCY_P99, 250, "prom"),       // healthy: 100 - 20 * 0.5 = 90, weight 2
                SignalReading.of(HealthSignal.CPU, 0.99, "prom")),             // critical: 40 - 40 * 0.04/0.15, weight 1
                List.of(), List.of());
        assertThat(r.status()).isEqualTo(HealthStatus.CRITICAL);
        double cpu = 40 - 40 * (0.99 - 0.95) / 0.15;
        assertThat(r.score().getAsDouble()).isCloseTo((60 * 3 + 90 * 2 + cpu) / 6, offset(1e-9));
        assertThat(r.drivers()).hasSize(2);
        assertThat(r.drivers()).anySatisfy(d -> assertThat(d).contains("cpu 99.0% >= critical 95.0%"));
        assertThat(r.drivers()).anySatisfy(d -> assertThat(d).contains("error_rate 3.00% >= degraded 1.00%"));
    }

    @Test
    void scoreScale_hasTheDocumentedAnchors() {
        SignalThreshold t = new SignalThreshold(10, 20, 1);
        assertThat(HealthEvaluator.scale(0, t)).isEqualTo(100);
        assertThat(HealthEvaluator.scale(10, t)).isEqualTo(80);
        assertThat(HealthEvaluator.scale(20, t)).isEqualTo(40);
        assertThat(HealthEvaluator.scale(30, t)).isEqualTo(0);
        assertThat(HealthEvaluator.scale(1000, t)).isEqualTo(0);
    }

    @Test
    void requestRateDrop_isJudgedAgainstTheBaseline_andASurgeIsNotADrop() {
        HealthReport drop = evaluator.evaluate("api", List.of(SignalReading.requestRate(30, 100, "prom")), List.of(), List.of());
        assertThat(drop.status()).isEqualTo(HealthStatus.DEGRADED);
        assertThat(drop.signals().getFirst().measure()).isCloseTo(0.7, offset(1e-9));
        HealthReport surge = evaluator.evaluate("api", List.of(SignalReading.requestRate(300, 100, "prom")), List.of(), List.of());
        assertThat(surge.status()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(surge.signals().getFirst().measure()).isZero();
        // told as what it is: traffic three times the usual is up, not "down 0%"
        assertThat(surge.signals().getFirst().reason()).contains("vs usual 100.0 (up 200%)");
        assertThat(drop.signals().getFirst().reason()).contains("vs usual 100.0 (down 70%)");
    }

    @Test
    void anomalyInTheHarmfulDirection_raisesAHealthySignalToDegradedAndIsADriver() {
        AnomalyFinding up = stepFinding(+40, MetricKind.LATENCY);
        assertThat(up.anomalous()).isTrue();
        HealthReport r = evaluator.evaluate("api", List.of(SignalReading.of(HealthSignal.LATENCY_P99, 140, "prom")), List.of(),
                List.of(new SignalAnomaly(HealthSignal.LATENCY_P99, up)));
        assertThat(r.status()).isEqualTo(HealthStatus.DEGRADED);
        assertThat(r.drivers()).singleElement().asString().contains("latency_p99 anomalous");
        assertThat(r.toJson().getJsonArray("anomalies")).hasSize(1);
    }

    @Test
    void aLatencyAnomalyIsToldInMilliseconds_likeTheReadingItJoins() {
        // Prometheus latency series are in seconds; the reading beside the anomaly is in milliseconds
        AnomalyFinding seconds = stepFinding(0.1, 0.04, 0.002, MetricKind.LATENCY);
        assertThat(seconds.note()).as("the detector speaks in the series' unit").contains("(0.1");
        HealthReport r = evaluator.evaluate("api", List.of(SignalReading.of(HealthSignal.LATENCY_P99, 140, "prom")), List.of(),
                List.of(new SignalAnomaly(HealthSignal.LATENCY_P99, seconds)));
        assertThat(r.signals().getFirst().reason())
                .matches("latency_p99 anomalous: step up from 1\\d\\d ms to 1[34]\\d ms since \\S+Z \\(\\d+\\.\\d sigma above the flat baseline\\)")
                .doesNotContain("from 0.", "to 0.");
    }

    @Test
    void aLatencyStepShorterThanTheWindow_isToldAtTheLevelItReached_notAtTheWindowsMedian() {
        // an hour's window at 30 s whose last 25 minutes are 20x slower: the window's median is still 22 ms
        Random rnd = new Random(3);
        long[] t = new long[600];
        double[] x = new double[600];
        for (int i = 0; i < 600; i++) {
            t[i] = i * 30_000L;
            x[i] = (i >= 550 ? 0.45 : 0.022) + rnd.nextGaussian() * 0.0005;
        }
        AnomalyFinding step = new AnomalyDetector().detect(new Series(Map.of(), t, x),
                DetectionSettings.of(MetricKind.LATENCY).withWindow(Duration.ofHours(1)));

        assertThat(HealthEvaluator.anomalyClause(HealthSignal.LATENCY_P99, step))
                .matches("step up from 22\\.\\d ms to 45\\d ms since \\S+Z \\(\\d+\\.\\d sigma above the flat baseline\\)");
    }

    @Test
    void aSpikeThatEnded_isToldAtItsPeak_andWhereTheSignalIsNow() {
        Random rnd = new Random(4);
        long[] t = new long[120];
        double[] x = new double[120];
        for (int i = 0; i < 120; i++) {
            t[i] = i * 60_000L;
            x[i] = 0.002 + rnd.nextGaussian() * 0.0002 + (i >= 103 && i < 109 ? 0.05 : 0);
        }
        AnomalyFinding spike = new AnomalyDetector().detect(new Series(Map.of(), t, x),
                DetectionSettings.of(MetricKind.ERRORS).withWindow(Duration.ofMinutes(20)));

        assertThat(HealthEvaluator.anomalyClause(HealthSignal.ERROR_RATE, spike))
                .matches("spike up from 0\\.2\\d*% to 5\\.2\\d*% since \\S+Z, back at 0\\.[12]\\d*% now \\(.*\\)");
    }

    @Test
    void ratiosAreToldInPercent_andTheRequestRateInRequestsPerSecond() {
        AnomalyFinding errors = stepFinding(0.002, 0.1, 0.0002, MetricKind.ERRORS);
        assertThat(HealthEvaluator.anomalyClause(HealthSignal.ERROR_RATE, errors)).matches("step up from 0\\.\\d+% to 10\\.\\d% since .*");
        AnomalyFinding drop = stepFinding(1000, -400, 2, MetricKind.THROUGHPUT);
        assertThat(HealthEvaluator.anomalyClause(HealthSignal.REQUEST_RATE_DROP, drop))
                .matches("step down from 1000 requests/s to 60\\d\\.?\\d* requests/s since .* below the flat baseline\\)");

        JsonObject json = evaluator.evaluate("api", List.of(SignalReading.requestRate(30, 100, "prom")), List.of(), List.of()).toJson();
        JsonObject rate = json.getJsonArray("signals").getJsonObject(0);
        assertThat(rate.getJsonNumber("value").doubleValue()).isEqualTo(30);
        assertThat(rate.getString("unit")).as("the value is a rate; the drop is the ratio").isEqualTo("requests/s");
        assertThat(rate.getJsonNumber("drop").doubleValue()).isCloseTo(0.7, offset(1e-9));
    }

    @Test
    void driversThatAreWholeSentences_joinIntoTheNoteWithoutDoubledPunctuation() {
        AnomalyFinding latency = stepFinding(+40, MetricKind.LATENCY);
        AnomalyFinding errors = stepFinding(+40, MetricKind.ERRORS);
        assertThat(latency.note()).endsWith(".");
        HealthReport r = evaluator.evaluate("api", List.of(
                        SignalReading.of(HealthSignal.LATENCY_P99, 140, "prom"),
                        SignalReading.of(HealthSignal.ERROR_RATE, 0.2, "prom")),
                List.of(new MissingSignal(HealthSignal.CPU, "no container limits")),
                List.of(new SignalAnomaly(HealthSignal.LATENCY_P99, latency), new SignalAnomaly(HealthSignal.ERROR_RATE, errors)));

        assertThat(r.drivers()).hasSize(2).allSatisfy(d -> assertThat(d).doesNotEndWith("."));
        assertThat(r.note()).contains("; latency_p99 anomalous: ", ". Missing, not counted: cpu (no container limits)")
                .doesNotContain(".;", "..", "; ;");
    }

    @Test
    void requestRateSurgeAnomaly_doesNotDegrade() {
        AnomalyFinding surge = stepFinding(+400, MetricKind.THROUGHPUT);
        assertThat(surge.anomalous()).isTrue();
        HealthReport r = evaluator.evaluate("api", List.of(SignalReading.requestRate(1400, 1000, "prom")), List.of(),
                List.of(new SignalAnomaly(HealthSignal.REQUEST_RATE_DROP, surge)));
        assertThat(r.status()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void severalReadingsOfOneSignal_theWorstCounts() {
        HealthReport r = evaluator.evaluate("api", List.of(
                SignalReading.of(HealthSignal.ERROR_RATE, 0.001, "prom-1"),
                SignalReading.of(HealthSignal.ERROR_RATE, 0.2, "prom-2")), List.of(), List.of());
        assertThat(r.signals()).singleElement().satisfies(s -> {
            assertThat(s.source()).isEqualTo("prom-2");
            assertThat(s.status()).isEqualTo(HealthStatus.CRITICAL);
        });
    }

    @Test
    void disabledSignal_isNeitherScoredNorMissing() {
        HealthThresholds noMemory = ((HealthThresholds.Valid) HealthThresholds.parse(
                jakarta.json.Json.createObjectBuilder().add("memory", jakarta.json.Json.createObjectBuilder().add("enabled", false)).build()))
                .thresholds();
        HealthReport r = new HealthEvaluator(noMemory).evaluate("api",
                List.of(SignalReading.of(HealthSignal.MEMORY, 0.99, "prom")), List.of(), List.of());
        assertThat(r.status()).isEqualTo(HealthStatus.UNKNOWN);
        assertThat(r.missing()).extracting(MissingSignal::signal).doesNotContain(HealthSignal.MEMORY);
    }

    @Test
    void readings_refuseNonFiniteValuesAndMisplacedBaselines() {
        assertThatThrownBy(() -> SignalReading.of(HealthSignal.CPU, Double.NaN, "p")).hasMessageContaining("MissingSignal");
        assertThatThrownBy(() -> SignalReading.of(HealthSignal.CPU, -1, "p")).hasMessageContaining(">= 0");
        assertThatThrownBy(() -> SignalReading.requestRate(10, 0, "p")).hasMessageContaining("positive finite baseline");
        assertThatThrownBy(() -> new SignalReading(HealthSignal.CPU, 1, java.util.OptionalDouble.of(2), "p"))
                .hasMessageContaining("only request_rate_drop");
        // +Inf means "above the largest histogram bucket" only for a latency percentile
        assertThatThrownBy(() -> SignalReading.of(HealthSignal.ERROR_RATE, Double.POSITIVE_INFINITY, "p"))
                .hasMessageContaining("finite number");
    }

    @Test
    void aP99AboveTheLargestHistogramBucket_isCritical_notLeftOutOfAServiceReportedHealthy() {
        // histogram_quantile answers +Inf when the p99 lies beyond the largest finite bucket (10 s by default):
        // left out as "missing", the service read healthy on its error rate alone while every slow request timed out
        HealthReport r = evaluator.evaluate("api", List.of(SignalReading.of(HealthSignal.ERROR_RATE, 0.001, "prom"),
                SignalReading.latencyAboveLargestBucket("prom")), List.of(), List.of());

        assertThat(r.status()).isEqualTo(HealthStatus.CRITICAL);
        SignalHealth latency = r.signals().stream().filter(s -> s.signal() == HealthSignal.LATENCY_P99).findFirst().orElseThrow();
        assertThat(latency.status()).isEqualTo(HealthStatus.CRITICAL);
        assertThat(latency.score()).isZero();
        assertThat(r.missing()).extracting(MissingSignal::signal).doesNotContain(HealthSignal.LATENCY_P99);
        assertThat(r.drivers()).singleElement().asString().contains("above the largest histogram bucket", "too high to measure")
                .doesNotContain("Infinity");
        JsonObject json = r.toJson().getJsonArray("signals").stream().map(v -> v.asJsonObject())
                .filter(o -> o.getString("signal").equals("latency_p99")).findFirst().orElseThrow();
        assertThat(json.containsKey("value")).as("+Inf is no JSON number").isFalse();
        assertThat(json.getBoolean("aboveLargestBucket")).isTrue();
        assertThat(r.score().getAsDouble()).isLessThan(70);
    }

    private static AnomalyFinding stepFinding(double base, double amount, double noise, MetricKind kind) {
        Random rnd = new Random(1);
        long[] t = new long[120];
        double[] x = new double[120];
        for (int i = 0; i < 120; i++) {
            t[i] = i * 60_000L;
            x[i] = base + rnd.nextGaussian() * noise + (i >= 100 ? amount : 0);
        }
        return new AnomalyDetector().detect(new Series(Map.of(), t, x), DetectionSettings.of(kind).withWindow(Duration.ofMinutes(20)));
    }

    private static AnomalyFinding stepFinding(double amount, MetricKind kind) {
        Random rnd = new Random(1);
        long[] t = new long[120];
        double[] x = new double[120];
        for (int i = 0; i < 120; i++) {
            t[i] = i * 60_000L;
            x[i] = (kind == MetricKind.THROUGHPUT ? 1000 : 100) + rnd.nextGaussian() * 2 + (i >= 100 ? amount : 0);
        }
        return new AnomalyDetector().detect(new Series(Map.of(), t, x), DetectionSettings.of(kind).withWindow(Duration.ofMinutes(20)));
    }

    @Test
    void signalsMissingForTheSameReason_shareItInTheNote() {
        String why = "it needs the containers' limits (cAdvisor container_spec_* or kube-state-metrics)";
        String note = HealthEvaluator.names(List.of(
                new MissingSignal(HealthSignal.CPU, "no source returned cpu_utilization for 'kubelet': " + why),
                new MissingSignal(HealthSignal.MEMORY, "no source returned memory_utilization for 'kubelet': " + why),
                new MissingSignal(HealthSignal.ERROR_RATE, "prom failed (timeout): Prometheus did not answer within 10000 ms")));
        assertThat(note).isEqualTo("cpu, memory (" + why + "); error_rate (prom failed (timeout): Prometheus did not answer within 10000 ms)");
        assertThat(HealthEvaluator.names(List.of(new MissingSignal(HealthSignal.CPU, "no source returned cpu_utilization for 'kubelet': " + why))))
                .as("alone, a signal keeps its whole reason").isEqualTo("cpu (no source returned cpu_utilization for 'kubelet': " + why + ")");
    }
}
