package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.FakeMetricsBackend.noisy;
import static dev.omcp.core.tools.observability.FakeMetricsBackend.stepAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.omcp.core.analysis.health.HealthSignal;
import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.core.analysis.history.HistoryQuery;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.testkit.schema.UndeclaredMembers;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServiceHealthToolTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private static final long TEN_MINUTES_AGO = NOW.minus(Duration.ofMinutes(10)).toEpochMilli();
    private final ManualClock clock = new ManualClock(NOW);
    private final AnomalyHistory history = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());

    /** A service whose five signals are all well inside the default thresholds. */
    private static FakeMetricsBackend healthy(String source, String service) {
        return new FakeMetricsBackend(source)
                .serve(service, "error_rate", noisy(0.002, 0.1))
                .serve(service, "latency_p99", noisy(0.120, 0.05))
                .serve(service, "request_rate", noisy(50, 0.05))
                .serve(service, "cpu_utilization", noisy(0.30, 0.05))
                .serve(service, "memory_utilization", noisy(0.50, 0.02));
    }

    /** A service whose other four signals are healthy and whose request rate follows {@code traffic}. */
    private static FakeMetricsBackend withTraffic(String service, FakeMetricsBackend.Curve traffic) {
        return new FakeMetricsBackend("prom")
                .serve(service, "error_rate", noisy(0.002, 0.1))
                .serve(service, "latency_p99", noisy(0.1, 0.05))
                .serve(service, "request_rate", traffic)
                .serve(service, "cpu_utilization", noisy(0.3, 0.05))
                .serve(service, "memory_utilization", noisy(0.4, 0.02));
    }

    private ServiceHealthTool tool(InMemorySources sources) {
        return tool(Toolkit.builder(sources.registry(), clock).history(history));
    }

    private static ServiceHealthTool tool(Toolkit.Builder builder) {
        return new ServiceHealthTool(builder.build());
    }

    private static JsonObject signal(JsonObject result, String name) {
        return result.getJsonArray("signals").stream().map(JsonValue::asJsonObject).filter(s -> s.getString("signal").equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no signal " + name + " in " + result));
    }

    @Test
    void aServiceInsideEveryThresholdIsHealthyAndEverySignalIsReported() {
        FakeMetricsBackend prom = healthy("prom", "payments");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"payments\"}");

        assertThat(result.getString("status")).isEqualTo("healthy");
        assertThat(result.getJsonNumber("score").doubleValue()).isGreaterThan(80);
        assertThat(result.getJsonArray("signals")).hasSize(5);
        assertThat(result.getJsonArray("missing")).isEmpty();
        assertThat(result.getJsonArray("drivers")).isEmpty();
        assertThat(result.getJsonArray("anomalies")).isEmpty();
        // latency comes in seconds and is judged in milliseconds
        assertThat(signal(result, "latency_p99").getJsonNumber("value").doubleValue()).isCloseTo(120, within(8.0));
        assertThat(signal(result, "latency_p99").getString("unit")).isEqualTo("ms");
        assertThat(signal(result, "request_rate_drop").getJsonNumber("drop").doubleValue()).isLessThan(0.2);
        assertThat(result.getString("window")).isEqualTo("15m");
        assertThat(result.getString("from")).isEqualTo("2026-03-10T10:45:00Z");
        assertThat(result.getString("to")).isEqualTo("2026-03-10T12:00:00Z");
    }

    @Test
    void signalsNearTheLargestDouble_areJudged_notACrash() {
        // the median of an even count of values beyond half the largest double overflowed to +Inf: an error rate
        // (or the usual request rate) of +Inf is no reading, and the evaluator's refusal failed the whole call
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("svc", "error_rate", t -> 1.5e308)
                .serve("svc", "latency_p99", noisy(0.1, 0.05))
                .serve("svc", "request_rate", t -> 1.5e308)
                .serve("svc", "cpu_utilization", noisy(0.3, 0.05))
                .serve("svc", "memory_utilization", noisy(0.4, 0.02));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"svc\"}");

        assertThat(result.getString("status")).isEqualTo("critical");
        assertThat(signal(result, "error_rate").getString("status")).isEqualTo("critical");
        assertThat(signal(result, "error_rate").getJsonNumber("value").doubleValue()).isEqualTo(1.5e308);
        assertThat(signal(result, "request_rate_drop").getJsonNumber("drop").doubleValue()).isZero();
    }

    @Test
    void anErrorRateOfRoundingNoiseBelowZero_readsAsNoErrors_notAsAMissingSignal() {
        // a template such as 1 - ok/total gives -2.2e-16 when every request succeeded: that is 0, not a bad answer
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("svc", "error_rate", t -> -2.220446049250313e-16)
                .serve("svc", "latency_p99", noisy(0.1, 0.05))
                .serve("svc", "request_rate", noisy(50, 0.05))
                .serve("svc", "cpu_utilization", noisy(0.3, 0.05))
                .serve("svc", "memory_utilization", noisy(0.4, 0.02));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"svc\"}");

        assertThat(signal(result, "error_rate").getString("status")).isEqualTo("healthy");
        assertThat(signal(result, "error_rate").getJsonNumber("value").doubleValue()).isZero();
    }

    @Test
    void aClearlyNegativeErrorRate_isStillNamedAsABadAnswer() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("svc", "error_rate", t -> -0.01)
                .serve("svc", "latency_p99", noisy(0.1, 0.05))
                .serve("svc", "request_rate", noisy(50, 0.05))
                .serve("svc", "cpu_utilization", noisy(0.3, 0.05))
                .serve("svc", "memory_utilization", noisy(0.4, 0.02));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"svc\"}");

        assertThat(result.getJsonArray("missing").toString()).contains("returned a negative error_rate (-0.01)");
    }

    @Test
    void theFiveSignalsAreAskedInOneParallelBatchOverTheWindowAndItsBaseline() {
        FakeMetricsBackend prom = healthy("prom", "payments");
        ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"payments\",\"window\":\"30m\"}");
        assertThat(prom.queries).extracting(MetricQuery::metric).containsExactlyInAnyOrder(
                "error_rate", "latency_p99", "request_rate", "cpu_utilization", "memory_utilization");
        MetricQuery any = prom.queries.getFirst();
        // a 30m window and a 2h baseline (four windows) before it
        assertThat(any.range().length()).isEqualTo(Duration.ofMinutes(150));
        assertThat(any.step()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void anErrorRateAboveTheCriticalThresholdMakesTheServiceCriticalAndSaysWhy() {
        FakeMetricsBackend prom = healthy("prom", "checkout");
        prom.serve("checkout", "error_rate", noisy(0.08, 0.05));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"checkout\"}");
        // the fake serves both error_rate curves; the worse one counts
        assertThat(result.getString("status")).isEqualTo("critical");
        assertThat(signal(result, "error_rate").getString("status")).isEqualTo("critical");
        assertThat(result.getJsonArray("drivers").getString(0)).contains("error_rate", "critical");
        assertThat(result.getString("note")).startsWith("checkout is critical");
    }

    @Test
    void anAnomalyInsideTheThresholdsDegradesTheServiceAndIsRecordedInTheHistory() {
        // p99 jumps from 40 ms to 300 ms ten minutes ago: below the 500 ms threshold, far from normal
        FakeMetricsBackend slow = new FakeMetricsBackend("prom")
                .serve("payments-db", "error_rate", noisy(0.001, 0.1))
                .serve("payments-db", "latency_p99", stepAt(TEN_MINUTES_AGO, 0.040, 0.300, 0.05))
                .serve("payments-db", "request_rate", noisy(60, 0.05))
                .serve("payments-db", "cpu_utilization", noisy(0.2, 0.05))
                .serve("payments-db", "memory_utilization", noisy(0.6, 0.02));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(slow)), "{\"service\":\"payments-db\"}");

        assertThat(result.getString("status")).isEqualTo("degraded");
        assertThat(signal(result, "latency_p99").getString("status")).isEqualTo("degraded");
        assertThat(signal(result, "latency_p99").getString("reason")).contains("latency_p99 anomalous");
        JsonObject anomaly = result.getJsonArray("anomalies").getJsonObject(0);
        assertThat(anomaly.getString("signal")).isEqualTo("latency_p99");
        assertThat(anomaly.getString("direction")).isEqualTo("up");
        assertThat(Instant.parse(anomaly.getString("onset"))).isBetween(NOW.minus(Duration.ofMinutes(11)), NOW.minus(Duration.ofMinutes(9)));

        assertThat(result.getJsonObject("history").getInt("recorded")).isEqualTo(5);
        assertThat(result.getJsonObject("history").getBoolean("remoteWrite")).isFalse();
        assertThat(result.getJsonObject("history").getString("note")).contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE");
        List<HistoryRow> rows = history.query(new HistoryQuery("", Optional.of("payments-db"), Optional.empty(), NOW.minusSeconds(60),
                NOW, 100, true)).rows();
        assertThat(rows).extracting(HistoryRow::signal).containsExactly("latency_p99");
    }

    @Test
    void scoresAreRecordedUnderTheCallersTenantOnly() {
        FakeMetricsBackend prom = healthy("prom", "api");
        ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\"}", Principal.apiKey("ci", "acme"));
        assertThat(history.query(new HistoryQuery("acme", Optional.of("api"), Optional.empty(), NOW.minusSeconds(60), NOW, 100, false))
                .rows()).hasSize(5);
        assertThat(history.query(new HistoryQuery("globex", Optional.of("api"), Optional.empty(), NOW.minusSeconds(60), NOW, 100, false))
                .rows()).isEmpty();
    }

    @Test
    void everySignalMissingSignalAndAnomaly_namesTheQueryMetricsMetricItWasReadFrom() {
        // cpu and memory are shares of the limits here, while query_metrics' cpu and memory are cores and bytes
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("api", "error_rate", noisy(0.002, 0.1))
                .serve("api", "latency_p99", stepAt(TEN_MINUTES_AGO, 0.040, 0.300, 0.05))
                .serve("api", "request_rate", noisy(50, 0.05))
                .serve("api", "cpu_utilization", noisy(0.30, 0.05));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\"}");

        assertThat(signal(result, "cpu").getString("metric")).isEqualTo("cpu_utilization");
        assertThat(signal(result, "request_rate_drop").getString("metric")).isEqualTo("request_rate");
        assertThat(signal(result, "error_rate").getString("metric")).isEqualTo("error_rate");
        assertThat(signal(result, "latency_p99").getString("metric")).isEqualTo("latency_p99");
        JsonObject memory = result.getJsonArray("missing").getJsonObject(0);
        assertThat(memory.getString("signal")).isEqualTo("memory");
        assertThat(memory.getString("metric")).isEqualTo("memory_utilization");
        JsonObject anomaly = result.getJsonArray("anomalies").getJsonObject(0);
        assertThat(anomaly.getString("signal")).isEqualTo("latency_p99");
        assertThat(anomaly.getString("metric")).isEqualTo("latency_p99");
        assertThat(UndeclaredMembers.in(result, tool(new InMemorySources()).definition().outputSchema().orElseThrow())).isEmpty();
        // the history records the metric, so the same name finds the score there
        assertThat(history.query(new HistoryQuery("", Optional.of("api"), Optional.empty(), NOW.minusSeconds(60), NOW, 100, false))
                .rows()).extracting(HistoryRow::signal).contains(signal(result, "request_rate_drop").getString("metric"));
    }

    @Test
    void theMetricOfEverySignal_isACuratedQueryMetricsName_andTheDescriptionSendsTheAgentThere() {
        for (HealthSignal signal : HealthSignal.values()) {
            assertThat(CuratedMetricNames.curated(signal.metric())).as(signal.wireName()).isTrue();
        }
        var definition = tool(new InMemorySources()).definition();
        assertThat(definition.description()).contains("query_metrics with a signal's `metric`");
        JsonObject signalItem = definition.outputSchema().orElseThrow().getJsonObject("properties").getJsonObject("signals")
                .getJsonObject("items");
        assertThat(signalItem.getJsonObject("properties").getJsonObject("metric").getJsonArray("enum"))
                .extracting(v -> ((jakarta.json.JsonString) v).getString())
                .containsExactly("error_rate", "latency_p99", "cpu_utilization", "memory_utilization", "request_rate");
    }

    @Test
    void aTrafficDropAgainstTheBaselineDegradesTheService() {
        FakeMetricsBackend dropped = withTraffic("frontend", stepAt(TEN_MINUTES_AGO, 100, 30, 0.03));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(dropped)), "{\"service\":\"frontend\"}");
        JsonObject drop = signal(result, "request_rate_drop");
        assertThat(drop.getJsonNumber("drop").doubleValue()).isCloseTo(0.7, within(0.03));
        assertThat(drop.getString("status")).isEqualTo("degraded");
        assertThat(result.getString("status")).isEqualTo("degraded");
    }

    @Test
    void aLongWindowsTrafficDrop_comparesWithTheBaselineBeforeTheWindow_notTheDaysOfHistoryReadForTheSeason() {
        // ten times the traffic until eleven hours ago; a 2h window reads two days, its baseline is the 8 hours before it
        long elevenHoursAgo = NOW.minus(Duration.ofHours(11)).toEpochMilli();
        FakeMetricsBackend moved = withTraffic("frontend", stepAt(elevenHoursAgo, 1000, 100, 0.01));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(moved)), "{\"service\":\"frontend\",\"window\":\"2h\"}");

        assertThat(moved.queries.getFirst().range().length()).isEqualTo(Duration.ofDays(2).plusMinutes(150));
        assertThat(signal(result, "request_rate_drop").getJsonNumber("drop").doubleValue()).isCloseTo(0, within(0.03));
    }

    @Test
    void aServiceWithoutTrafficBeforeTheWindowHasNoDropToJudge() {
        FakeMetricsBackend prom = healthy("prom", "batch");
        prom.serve("batch", "request_rate", stepAt(TEN_MINUTES_AGO, 0, 5, 0.01));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"batch\"}");
        // the fake serves two request_rate series: the steady one is read, the new one is named as unusable
        assertThat(result.getJsonArray("signals").stream().map(JsonValue::asJsonObject)
                .filter(s -> s.getString("signal").equals("request_rate_drop")).count()).isEqualTo(1);

        FakeMetricsBackend fresh = new FakeMetricsBackend("prom").serve("batch", "request_rate", stepAt(TEN_MINUTES_AGO, 0, 5, 0.01));
        JsonObject missing = ToolHarness.ok(tool(new InMemorySources().add(fresh)), "{\"service\":\"batch\"}")
                .getJsonArray("missing").getValuesAs(JsonObject.class).stream()
                .filter(m -> m.getString("signal").equals("request_rate_drop")).findFirst().orElseThrow();
        assertThat(missing.getString("reason")).isEqualTo("prom has no traffic in the baseline before the window to compare with");
    }

    /**
     * A service that serves about a request a minute: its one-minute rate points are 1/60 or, a third
     * of the time, 0. Five quiet minutes are chance at that traffic, not an outage; judged against the
     * usual 1/60 they read "down 100 %", critical.
     */
    @Test
    void aServiceWithTooLittleTrafficToTellADropFromChance_hasTheDropMissing_notCritical() {
        long fiveMinutesAgo = NOW.minus(Duration.ofMinutes(5)).toEpochMilli();
        FakeMetricsBackend.Curve aRequestAMinute = t -> t < fiveMinutesAgo && FakeMetricsBackend.jitter(t) > -0.4 ? 1 / 60.0 : 0;
        FakeMetricsBackend prom = withTraffic("admin", aRequestAMinute);

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"admin\"}");

        assertThat(result.getString("status")).as(result.toString()).isEqualTo("healthy");
        JsonObject missing = result.getJsonArray("missing").getValuesAs(JsonObject.class).stream()
                .filter(m -> m.getString("signal").equals("request_rate_drop")).findFirst().orElseThrow();
        assertThat(missing.getString("reason")).isEqualTo("prom usually serves 0.0167 requests/s, about 5 in the last 5m: too few to tell"
                + " a drop from chance (at least 10 are needed)");
    }

    @Test
    void signalsWithoutDataAreListedWithTheReasonAndNeverCountedAsZero() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("legacy", "error_rate", noisy(0.002, 0.1))
                .serve("legacy", "latency_p99", noisy(0.1, 0.05))
                .serve("legacy", "request_rate", noisy(5, 0.05));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"legacy\"}");
        assertThat(result.getString("status")).isEqualTo("healthy");
        assertThat(result.getJsonArray("signals")).hasSize(3);
        List<JsonObject> missing = result.getJsonArray("missing").getValuesAs(JsonObject.class);
        assertThat(missing).extracting(m -> m.getString("signal")).containsExactly("cpu", "memory");
        assertThat(missing.getFirst().getString("reason")).contains("no source returned cpu_utilization for 'legacy'",
                "container_spec_*", "kube_pod_container_resource_limits");
        assertThat(result.getString("note")).contains("Missing, not counted");
    }

    @Test
    void aP99BeyondTheLargestBucketIsCriticalAsTooHighToMeasure_notMissingFromAHealthyService() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("api", "error_rate", noisy(0.002, 0.1))
                .serve("api", "latency_p99", t -> t < TEN_MINUTES_AGO ? 0.1 : Double.POSITIVE_INFINITY);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\"}");

        // before: latency_p99 was listed as missing and the service "healthy" on its error rate alone
        assertThat(result.getString("status")).isEqualTo("critical");
        assertThat(result.getJsonArray("missing").getValuesAs(JsonObject.class)).extracting(m -> m.getString("signal"))
                .doesNotContain("latency_p99");
        JsonObject latency = signal(result, "latency_p99");
        assertThat(latency.getString("status")).isEqualTo("critical");
        assertThat(latency.getBoolean("aboveLargestBucket")).isTrue();
        assertThat(latency.containsKey("value")).isFalse();
        assertThat(latency.getString("reason")).contains("above the largest histogram bucket", "+Inf", "too high to measure");
        // and an anomaly: the detector read +Inf as above every finite value, not as a gap, and says so without a number
        assertThat(latency.getString("reason")).contains("latency_p99 anomalous: step up from 100 ms to above the largest histogram "
                + "bucket since");
        JsonObject anomaly = result.getJsonArray("anomalies").getValuesAs(JsonObject.class).stream()
                .filter(a -> a.getString("signal").equals("latency_p99")).findFirst().orElseThrow();
        assertThat(anomaly.getBoolean("anomalous")).isTrue();
        assertThat(anomaly.getJsonNumber("score").doubleValue()).isGreaterThanOrEqualTo(20);
        JsonObject evidence = anomaly.getJsonObject("evidence");
        assertThat(evidence.getBoolean("anomalyLevelAboveLargestBucket")).isTrue();
        assertThat(evidence.keySet()).doesNotContain("anomalyLevel", "currentLevel");
        assertThat(evidence.getInt("windowPointsAboveLargestBucket")).isPositive();
        assertThat(result.toString()).doesNotContain("Infinity", "NaN");
        JsonObject declaredEvidence = tool(new InMemorySources()).definition().outputSchema().orElseThrow().getJsonObject("properties")
                .getJsonObject("anomalies").getJsonObject("items").getJsonObject("properties").getJsonObject("evidence");
        assertThat(declaredEvidence.getJsonObject("properties").keySet()).containsAll(evidence.keySet());
    }

    @Test
    void aP99BeyondTheLargestBucketForMostOfTheLastMinutes_isNotReadFromTheFewThatWereMeasurable() {
        // a gap-dropping median read the last 5 minutes from the one point in three still under the largest bucket
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("api", "error_rate", noisy(0.002, 0.1))
                .serve("api", "latency_p99", t -> t < TEN_MINUTES_AGO || (t / 30_000) % 3 == 0 ? 0.1 : Double.POSITIVE_INFINITY);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\"}");

        assertThat(result.getString("status")).isEqualTo("critical");
        assertThat(signal(result, "latency_p99").getBoolean("aboveLargestBucket")).isTrue();
    }

    @Test
    void anUnknownServiceIsUnknownWithoutAScoreAndPointsToListServices() {
        FakeMetricsBackend prom = healthy("prom", "payments");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"paymens\"}");
        assertThat(result.getString("status")).isEqualTo("unknown");
        assertThat(result.containsKey("score")).isFalse();
        assertThat(result.getJsonArray("missing").getJsonObject(0).getString("reason")).isEqualTo("no metrics source knows 'paymens'");
        assertThat(result.getString("note")).contains("list_services").endsWith("Did you mean 'payments'?");
        assertThat(result.getJsonObject("history").getInt("recorded")).isZero();
        JsonObject namespaced = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"shop/payments\"}");
        assertThat(namespaced.getString("note")).as("a log stream's job label spells it so").endsWith("Did you mean 'payments'?");
    }

    @Test
    void withoutAMetricsSourceHealthIsUnknownAndTheNoteSaysWhatToConfigure() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources()), "{\"service\":\"payments\"}");
        assertThat(result.getString("status")).isEqualTo("unknown");
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getString("note")).contains("No connected source can answer metric queries", "PROMETHEUS_URL");
    }

    @Test
    void aFailingSourceIsNamedAndItsSignalsAreMissingNotZero() {
        FakeMetricsBackend prom = healthy("prom-a", "api");
        prom.failing("latency_p99", new ConnectorException(ConnectorException.Kind.BAD_QUERY, "parse error at char 7"));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\"}");
        assertThat(result.getBoolean("partial")).isTrue();
        JsonObject failed = result.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("source")).isEqualTo("prom-a");
        assertThat(failed.getInt("failedQueries")).isEqualTo(1);
        assertThat(failed.getJsonArray("metrics").getString(0)).isEqualTo("latency_p99");
        JsonObject missing = result.getJsonArray("missing").getJsonObject(0);
        assertThat(missing.getString("signal")).isEqualTo("latency_p99");
        assertThat(missing.getString("reason")).isEqualTo("prom-a failed (bad_query): parse error at char 7");
        assertThat(result.getString("note")).contains("Some sources failed");
    }

    @Test
    void oneHangingSourceOfThreeLeavesAPartialAnswerWithinTheDeadline() {
        FakeMetricsBackend a = healthy("prom-a", "api");
        FakeMetricsBackend b = healthy("prom-b", "api");
        FakeMetricsBackend hung = new FakeMetricsBackend("prom-c").hanging();
        ServiceHealthTool tool = tool(Toolkit.builder(new InMemorySources().add(a).add(b).add(hung).registry(), clock).history(history)
                .timeouts(Duration.ofMillis(200), Duration.ofSeconds(1)));
        long start = System.nanoTime();
        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"api\"}");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(result.getString("status")).isEqualTo("healthy");
        assertThat(result.getBoolean("partial")).isTrue();
        JsonObject failed = result.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("source")).isEqualTo("prom-c");
        assertThat(failed.getString("kind")).isEqualTo("timeout");
        assertThat(failed.getInt("failedQueries")).isEqualTo(5);
        assertThat(result.getJsonArray("sources")).containsExactly(Jsonp.value("prom-a"), Jsonp.value("prom-b"));
        // generous bound: the deadline is 1 s
        assertThat(took).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aDisabledSignalIsNeitherAskedNorReportedMissing() {
        FakeMetricsBackend prom = healthy("prom", "api");
        HealthThresholds withoutMemory = ((HealthThresholds.Valid) HealthThresholds.parse(
                Jsonp.reader("{\"memory\":{\"enabled\":false}}").readObject())).thresholds();
        ServiceHealthTool tool = tool(Toolkit.builder(new InMemorySources().add(prom).registry(), clock).history(history)
                .thresholds(withoutMemory));
        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"api\"}");
        assertThat(prom.queries).extracting(MetricQuery::metric).doesNotContain("memory_utilization");
        assertThat(result.getJsonArray("signals")).hasSize(4);
        assertThat(result.getJsonArray("missing")).isEmpty();
    }

    @Test
    void theCatalogEntryIsAttachedWhenTheCatalogListsTheService() {
        // spec 2.11: get_service_health carries .catalog
        FakeMetricsBackend prom = healthy("prom", "payments");
        ServiceCatalog catalog = ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(Jsonp.reader(
                "{\"services\":[{\"name\":\"payments\",\"owner\":\"team-pay\",\"slo\":\"99.9\"}]}").readObject())).catalog();
        JsonObject result = ToolHarness.ok(tool(Toolkit.builder(new InMemorySources().add(prom).registry(), clock).catalog(catalog)),
                "{\"service\":\"payments\"}");
        assertThat(result.getJsonObject("catalog").getString("owner")).isEqualTo("team-pay");
    }

    @Test
    void noCatalogMemberIsAttachedForAServiceTheCatalogDoesNotList() {
        // spec 2.11 enriches listed services only: an empty or made-up .catalog would read as the operator's word
        FakeMetricsBackend prom = healthy("prom", "checkout");
        ServiceCatalog catalog = ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(Jsonp.reader(
                "{\"services\":[{\"name\":\"payments\",\"owner\":\"team-pay\"}]}").readObject())).catalog();
        JsonObject result = ToolHarness.ok(tool(Toolkit.builder(new InMemorySources().add(prom).registry(), clock).catalog(catalog)),
                "{\"service\":\"checkout\"}");
        assertThat(result.getJsonArray("signals")).as("the health is still answered").isNotEmpty();
        assertThat(result.containsKey("catalog")).isFalse();
    }

    @Test
    void aWindowOutsideTwoMinutesToOneDayIsRefusedWithTheAllowedRange() {
        ServiceHealthTool tool = tool(new InMemorySources());
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"window\":\"1m\"}")).contains("window 1m is outside 2m..1d");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"window\":\"2d\"}")).contains("window 2d is outside 2m..1d");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"window\":\"15\"}")).contains("arguments.window");
        // past every tool's longest window too: the answer is still this tool's range, not a 30d it would refuse next
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"window\":\"31d\"}")).contains("window 31d is outside 2m..1d")
                .doesNotContain("30d");
        assertThat(ToolHarness.error(tool, "{}")).contains("service");
        assertThat(ToolHarness.error(tool, "{\"service\":\"a b\"}")).contains("arguments.service");
    }

    @Test
    void theDefinitionIsReadOnlyWithAnOutputSchema() {
        var definition = tool(new InMemorySources()).definition();
        assertThat(definition.name()).isEqualTo("get_service_health");
        assertThat(definition.annotations().readOnlyHint()).isTrue();
        assertThat(definition.outputSchema().orElseThrow().getJsonObject("properties").getJsonObject("status").getJsonArray("enum"))
                .hasSize(4);
        assertThat(definition.description()).contains("detect_anomalies", "query_logs");
    }
}
