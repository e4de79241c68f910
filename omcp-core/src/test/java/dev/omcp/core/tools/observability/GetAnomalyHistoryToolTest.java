package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.ToolInvocation.call;
import static dev.omcp.core.tools.observability.ToolInvocation.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GetAnomalyHistoryToolTest {
    private static final Instant NOW = Instant.parse("2025-03-10T10:00:00Z");
    private final ManualClock clock = new ManualClock(NOW.minus(Duration.ofMinutes(50)));
    /** Started long before every window asked for, so only the tests about the start see its note. */
    private final AnomalyHistory history = runningForHours(HistoryLimits.defaults());

    private AnomalyHistory runningForHours(HistoryLimits limits) {
        Instant now = clock.instant();
        clock.set(NOW.minus(Duration.ofHours(3)));
        AnomalyHistory running = new AnomalyHistory(clock, limits, Optional.empty());
        clock.set(now);
        return running;
    }

    private GetAnomalyHistoryTool tool(AnomalyHistory h) {
        return new GetAnomalyHistoryTool(Toolkit.builder(new ScriptedSources().registry(), clock).history(h).build());
    }

    private void record(String tenant, String service, String signal, Instant at, double score, boolean anomalous) {
        history.record(new AnomalyScoreSample(tenant, service, signal, at, score, anomalous, anomalous ? Optional.of("step") : Optional.empty(), Optional.empty()));
    }

    /** Scores every 5 minutes from 50 minutes ago: payments-db latency climbs from minute 25. */
    private void incident() {
        for (int minute = 50; minute >= 0; minute -= 5) {
            clock.set(NOW.minus(Duration.ofMinutes(minute)));
            boolean during = minute <= 25;
            record("", "payments-db", "latency_p99", clock.instant(), during ? 8 + (25 - minute) : 0.5, during);
            record("", "checkout", "error_rate", clock.instant(), during ? 3 : 0.2, false);
        }
        clock.set(NOW);
    }

    @Test
    void listsTheRecordedScoresOldestFirst_withAPerSignalSummary() {
        incident();
        JsonObject result = structured(call(tool(history), "{\"service\":\"payments-db\"}"));
        assertThat(result.getString("window")).isEqualTo("1h");
        assertThat(result.getString("from")).isEqualTo("2025-03-10T09:00:00Z");
        assertThat(result.getString("to")).isEqualTo("2025-03-10T10:00:00Z");
        assertThat(result.getJsonArray("rows")).hasSize(11);
        assertThat(result.getJsonArray("rows").getJsonObject(0).getString("at")).isEqualTo("2025-03-10T09:10:00Z");
        JsonObject last = result.getJsonArray("rows").getJsonObject(10);
        assertThat(last.getString("at")).isEqualTo("2025-03-10T10:00:00Z");
        assertThat(last.getBoolean("anomalous")).isTrue();
        assertThat(last.getString("kind")).isEqualTo("step");
        JsonObject signal = result.getJsonArray("signals").getJsonObject(0);
        assertThat(signal.getString("signal")).isEqualTo("latency_p99");
        assertThat(signal.getInt("samples")).isEqualTo(11);
        assertThat(signal.getInt("anomalousSamples")).isEqualTo(6);
        assertThat(signal.getJsonNumber("peakScore").doubleValue()).isEqualTo(33.0);
        assertThat(result.getInt("retentionSeconds")).isEqualTo(3600);
        assertThat(result.getBoolean("remoteSinkConfigured")).isFalse();
        assertThat(result.getBoolean("truncated")).isFalse();
        assertThat(result.containsKey("note")).isFalse();
    }

    @Test
    void aLatencyAboveTheLargestBucket_isFlaggedInItsRowAndLeadsTheSummary_thoughItsLowerBoundScoresLess() {
        clock.set(NOW);
        record("", "api", "latency_p99", NOW.minusSeconds(60), 150, true);
        history.record(new AnomalyScoreSample("", "db", "latency_p99", NOW.minusSeconds(30), 20, true, Optional.of("step"),
                Optional.of(NOW.minusSeconds(600)), true));
        JsonObject result = structured(call(tool(history), "{}"));
        assertThat(result.getJsonArray("rows").getJsonObject(0).containsKey("levelAboveLargestBucket")).isFalse();
        assertThat(result.getJsonArray("rows").getJsonObject(1).getBoolean("levelAboveLargestBucket")).isTrue();
        JsonObject first = result.getJsonArray("signals").getJsonObject(0);
        assertThat(first.getString("service")).isEqualTo("db");
        assertThat(first.getBoolean("levelAboveLargestBucket")).isTrue();
        JsonObject second = result.getJsonArray("signals").getJsonObject(1);
        assertThat(second.getString("service")).isEqualTo("api");
        assertThat(second.containsKey("levelAboveLargestBucket")).isFalse();
        // the output schema describes the flag where it appears
        JsonObject properties = tool(history).definition().outputSchema().orElseThrow().getJsonObject("properties");
        assertThat(properties.getJsonObject("rows").getJsonObject("items").getJsonObject("properties").getJsonObject("levelAboveLargestBucket")
                .getString("type")).isEqualTo("boolean");
        assertThat(properties.getJsonObject("signals").getJsonObject("items").getJsonObject("properties")
                .getJsonObject("levelAboveLargestBucket").getString("type")).isEqualTo("boolean");
    }

    @Test
    void windowSignalAndAnomalousOnly_narrowTheRows() {
        incident();
        JsonObject result = structured(call(tool(history), "{\"window\":\"12m\",\"anomalousOnly\":true}"));
        assertThat(result.getJsonArray("rows")).hasSize(3).allSatisfy(r -> assertThat(r.asJsonObject().getString("service"))
                .isEqualTo("payments-db"));
        JsonObject checkout = structured(call(tool(history), "{\"signal\":\"error_rate\",\"limit\":4}"));
        assertThat(checkout.getJsonArray("rows")).hasSize(4);
        assertThat(checkout.getBoolean("truncated")).isTrue();
        assertThat(checkout.getJsonArray("rows").getJsonObject(3).getString("at")).isEqualTo("2025-03-10T10:00:00Z");
        assertThat(checkout.getString("note")).contains("newest are returned");
    }

    @Test
    void aLongOpenTelemetryMetricJudgedByDetectAnomalies_canBeAskedForByName_asLongAsTheHistoryKeepsIt() {
        // detect_anomalies takes metric names of up to 300 characters with '.', '-' and '/'; the history keeps up to 256
        String longest = "k8s.pod/" + "network-io.".repeat(22) + "x".repeat(AnomalyScoreSample.MAX_NAME_LENGTH - 8 - 11 * 22);
        assertThat(longest).hasSize(AnomalyScoreSample.MAX_NAME_LENGTH);
        record("", "api", longest, clock.instant(), 7, true);
        record("", "api", "k8s.pod/cpu-time", clock.instant(), 1, false);
        record("", "api", "latency_p99", clock.instant(), 2, false);

        JsonObject result = structured(call(tool(history), "{\"signal\":\"" + longest + "\"}"));
        assertThat(result.getJsonArray("rows")).singleElement().satisfies(r -> assertThat(r.asJsonObject().getString("signal"))
                .isEqualTo(longest));
        assertThat(structured(call(tool(history), "{\"signal\":\"k8s.pod/cpu-time\"}")).getJsonArray("rows")).hasSize(1);
        // a longer name is never recorded, so the argument says how long a signal can be
        assertThat(call(tool(history), "{\"signal\":\"" + longest + "x\"}").firstText()).contains("arguments.signal");
        assertThat(tool(history).definition().inputSchema().getJsonObject("properties").getJsonObject("signal").getString("description"))
                .contains("longer than 256 characters are judged but not recorded");
    }

    @Test
    void rowScores_haveTwoDecimals_likeTheSummary() {
        record("", "payments-db", "latency_p99", clock.instant(), 1016.7847824338621, true);
        JsonObject result = structured(call(tool(history), "{}"));
        assertThat(result.getJsonArray("rows").getJsonObject(0).getJsonNumber("score").doubleValue()).isEqualTo(1016.78);
        assertThat(result.getJsonArray("signals").getJsonObject(0).getJsonNumber("peakScore").doubleValue()).isEqualTo(1016.78);
    }

    @Test
    void otherTenantsScoresAreNeverShown() {
        record("acme", "payments-db", "latency_p99", clock.instant(), 9, true);
        record("globex", "payments-db", "latency_p99", clock.instant(), 4, false);
        JsonObject acme = structured(call(tool(history), Principal.apiKey("acme-bot", "acme"), "{}"));
        assertThat(acme.getJsonArray("rows")).singleElement().satisfies(r -> assertThat(r.asJsonObject().getJsonNumber("score").doubleValue())
                .isEqualTo(9.0));
        JsonObject anonymous = structured(call(tool(history), "{}"));
        assertThat(anonymous.getJsonArray("rows")).isEmpty();
    }

    @Test
    void nothingRecorded_andNoSink_theNoteNamesTheRecordingToolsAndTheVariable() {
        JsonObject result = structured(call(tool(history), "{\"service\":\"payments\"}"));
        assertThat(result.getJsonArray("rows")).isEmpty();
        assertThat(result.getJsonArray("signals")).isEmpty();
        assertThat(result.getString("note")).contains("No anomaly scores of payments recorded in the last 1h")
                .contains("get_service_health").contains("detect_anomalies").contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE");
    }

    @Test
    void aNameNoSourceLists_saysSo_withTheNameItMostLikelyMeant() {
        // an empty history for a typo must not read as a quiet service
        ScriptedSources listing = new ScriptedSources().add("prom", new ScriptedConnector().services("payments", "payments-db", "checkout"));
        GetAnomalyHistoryTool tool = new GetAnomalyHistoryTool(Toolkit.builder(listing.registry(), clock).history(history).build());
        // and it does not also advise judging the typo first: the name it likely meant leads
        assertThat(structured(call(tool, "{\"service\":\"paymnets\"}")).getString("note"))
                .isEqualTo("No source lists a service named 'paymnets'; list_services shows the names. Did you mean 'payments'? "
                        + "No anomaly scores of paymnets recorded in the last 1h.");
        assertThat(structured(call(tool, "{\"service\":\"checkout\"}")).getString("note")).doesNotContain("No source lists");
        assertThat(structured(call(tool, "{\"service\":\"shop/checkout\"}")).getString("note")).doesNotContain("No source lists");
        assertThat(structured(call(tool(history), "{\"service\":\"paymnets\"}")).getString("note"))
                .as("without a listing source nobody can tell").doesNotContain("No source lists");
    }

    @Test
    void aNamespacedNameWithoutScores_pointsToTheNameTheyWereRecordedUnder() {
        incident();
        JsonObject result = structured(call(tool(history), "{\"service\":\"shop/payments-db\"}"));
        assertThat(result.getJsonArray("rows")).isEmpty();
        assertThat(result.getString("note")).endsWith("Scores of 'payments-db' were recorded in this window: ask with service 'payments-db'.");
        assertThat(structured(call(tool(history), "{\"service\":\"shop/inventory\"}")).getString("note"))
                .as("nothing under inventory either").doesNotContain("were recorded in this window");
    }

    @Test
    void aNamespacedNameWithoutScores_doesNotPointToTheSameNameInAnotherNamespace() {
        record("", "billing/payments-db", "latency_p99", clock.instant().minusSeconds(30), 6.0, true);
        JsonObject result = structured(call(tool(history), "{\"service\":\"shop/payments-db\"}"));
        assertThat(result.getJsonArray("rows")).isEmpty();
        assertThat(result.getString("note")).doesNotContain("were recorded in this window");
        assertThat(structured(call(tool(history), "{\"service\":\"payments-db\"}")).getJsonArray("rows"))
                .as("the bare name finds it, under the name it was recorded with").singleElement()
                .satisfies(row -> assertThat(row.asJsonObject().getString("service")).isEqualTo("billing/payments-db"));
    }

    @Test
    void anEmptyAnswerAlthoughScoresExist_saysWhereThey_areInsteadOfAskingToJudgeFirst() {
        incident();
        String otherSignal = structured(call(tool(history), "{\"service\":\"payments-db\",\"signal\":\"latency_p95\"}")).getString("note");
        assertThat(otherSignal).isEqualTo("No scores of payments-db (latency_p95) in this window, but scores of signal latency_p99 were "
                + "recorded: ask for it, or leave signal out.");
        clock.set(NOW.plus(Duration.ofMinutes(3)));
        String before = structured(call(tool(history), "{\"service\":\"payments-db\",\"window\":\"1m\"}")).getString("note");
        assertThat(before).isEqualTo("No scores of payments-db in this window; the newest was recorded at 2025-03-10T10:00:00Z, before it: "
                + "widen window (at most 1h).");
        assertThat(structured(call(tool(history), "{\"service\":\"inventory\"}")).getString("note"))
                .as("nothing anywhere near: then judging first is the advice").contains("call one of them first");
    }

    @Test
    void nothingRecorded_withASink_doesNotAskForTheVariable() {
        AnomalyHistory withSink = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(samples -> true));
        JsonObject result = structured(call(tool(withSink), "{}"));
        assertThat(result.getBoolean("remoteSinkConfigured")).isTrue();
        // the variable may name the receiver the earlier scores went to, but nobody is asked to set it
        assertThat(result.getString("note")).contains("detect_anomalies").doesNotContain("an operator sets")
                .doesNotContain("to keep them");
    }

    @Test
    void aWindowLongerThanTheRetention_isAnErrorThatSaysWhatIsKept() {
        ToolResult tooLong = call(tool(history), "{\"window\":\"2h\"}");
        assertThat(tooLong.isError()).isTrue();
        assertThat(tooLong.firstText()).isEqualTo("get_anomaly_history: window 2h is longer than the in-memory anomaly history (1h); "
                + "ask for at most 1h. Older scores are not kept: an operator sets OMCP_ANOMALY_HISTORY_REMOTE_WRITE to keep them in "
                + "Prometheus.");
    }

    @Test
    void aWindowLongerThanEveryToolsLongest_isStillAnsweredWithTheRetention_notWithA30dItWouldRefuseNext() {
        ToolResult tooLong = call(tool(history), "{\"window\":\"31d\"}");
        assertThat(tooLong.isError()).isTrue();
        assertThat(tooLong.firstText()).startsWith("get_anomaly_history: window 31d is longer than the in-memory anomaly history (1h); "
                + "ask for at most 1h.").doesNotContain("30d");
    }

    @Test
    void aWindowLongerThanTheRetention_withTheSink_namesTheMetricAndTheToolThatReadsOlderScores() {
        AnomalyHistory withSink = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(samples -> true));
        GetAnomalyHistoryTool readable = new GetAnomalyHistoryTool(Toolkit.builder(
                new InMemorySources().add(new FakeMetricsBackend("prom")).registry(), clock).history(withSink).build());

        ToolResult tooLong = call(readable, "{\"window\":\"6h\"}");

        assertThat(tooLong.isError()).isTrue();
        assertThat(tooLong.firstText()).isEqualTo("get_anomaly_history: window 6h is longer than the in-memory anomaly history (1h); "
                + "ask for at most 1h. Older scores were sent to the OMCP_ANOMALY_HISTORY_REMOTE_WRITE receiver as the metrics "
                + "omcp_anomaly_score and omcp_anomaly_detected, labelled service and signal: query_metrics with metric "
                + "omcp_anomaly_score, the service and groupBy [\"signal\"] reads them when that receiver is also a metrics source.");
    }

    @Test
    void aWindowLongerThanTheRetention_withTheSinkButNoMetricsSource_saysNothingCanReadThemBack() {
        AnomalyHistory withSink = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(samples -> true));
        GetAnomalyHistoryTool noMetrics = new GetAnomalyHistoryTool(Toolkit.builder(new ScriptedSources().registry(), clock)
                .history(withSink).howToAddSources("Set PROMETHEUS_URL.").build());

        String text = call(noMetrics, "{\"window\":\"2h\"}").firstText();

        assertThat(text).contains("omcp_anomaly_score").contains("no metrics source is configured to read them back")
                .endsWith("Set PROMETHEUS_URL.").doesNotContain("query_metrics");
    }

    @Test
    void scoresOverwrittenBecauseASeriesWasJudgedTooOften_areNamedInTheNote_ratherThanLookingLikeNoData() {
        AnomalyHistory small = runningForHours(new HistoryLimits(Duration.ofHours(1), 10, 3));
        clock.set(NOW);
        for (int secondsAgo = 50; secondsAgo >= 10; secondsAgo -= 10) {
            small.record(new AnomalyScoreSample("", "checkout", "latency_p99", NOW.minusSeconds(secondsAgo), 1, false, Optional.empty(),
                    Optional.empty()));
        }

        JsonObject result = structured(call(tool(small), "{\"service\":\"checkout\"}"));

        assertThat(result.getJsonArray("rows")).hasSize(3);
        assertThat(result.getString("note")).isEqualTo("Some of these series were judged more often than the history keeps (3 scores "
                + "per series): their scores up to 2025-03-10T09:59:20Z were overwritten, so rows up to then may be missing.");
    }

    @Test
    void seriesDroppedBecauseTheHistoryWasFull_areNamedInTheNote_ratherThanLookingLikeNoData() {
        AnomalyHistory small = runningForHours(new HistoryLimits(Duration.ofHours(1), 2, 10));
        clock.set(NOW);
        for (int i = 0; i < 4; i++) {
            small.record(new AnomalyScoreSample("", "svc-" + i, "latency_p99", NOW.minusSeconds(40 - i), 1, false, Optional.empty(),
                    Optional.empty()));
        }

        JsonObject result = structured(call(tool(small), "{\"service\":\"svc-0\"}"));

        assertThat(result.getJsonArray("rows")).isEmpty();
        assertThat(result.getString("note")).endsWith(" The history holds at most 2 series and was full: series last judged up to "
                + "2025-03-10T09:59:21Z were dropped to make room for others, so their rows may be missing.");
        assertThat(structured(call(tool(small), "{\"window\":\"30s\"}")).getString("note")).as("nothing dropped in this window")
                .doesNotContain("was full");
    }

    @Test
    void afterARestart_withTheSink_theNoteSaysTheMemoryBeginsAtTheStart_andWhereTheEarlierScoresAre() {
        clock.set(NOW.minus(Duration.ofMinutes(10)));
        AnomalyHistory restarted = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(samples -> true));
        GetAnomalyHistoryTool readable = new GetAnomalyHistoryTool(Toolkit.builder(
                new InMemorySources().add(new FakeMetricsBackend("prom")).registry(), clock).history(restarted).build());
        clock.set(NOW);
        String startedAndWhere = "The gateway started at 2025-03-10T09:50:00Z and its in-memory history begins then: scores judged "
                + "before were sent to the OMCP_ANOMALY_HISTORY_REMOTE_WRITE receiver as the metrics omcp_anomaly_score and "
                + "omcp_anomaly_detected, labelled service and signal: query_metrics with metric omcp_anomaly_score, the service and "
                + "groupBy [\"signal\"] reads them when that receiver is also a metrics source.";

        JsonObject empty = structured(call(readable, "{\"service\":\"payments-db\"}"));
        assertThat(empty.getJsonArray("rows")).isEmpty();
        assertThat(empty.getString("note")).endsWith(" " + startedAndWhere);

        restarted.record(new AnomalyScoreSample("", "payments-db", "latency_p99", NOW.minusSeconds(60), 9, true, Optional.of("step"),
                Optional.empty()));
        JsonObject some = structured(call(readable, "{\"service\":\"payments-db\"}"));
        assertThat(some.getJsonArray("rows")).as("the rows since the start do not say the signal began to move then").hasSize(1);
        assertThat(some.getString("note")).isEqualTo(startedAndWhere);
        assertThat(structured(call(readable, "{\"service\":\"payments-db\",\"window\":\"5m\"}")))
                .as("a window since the start misses nothing").doesNotContainKey("note");
    }

    @Test
    void aWindowBeforeTheStart_withoutTheSink_saysTheMemoryBeginsAtTheStart_andHowToKeepTheHistoryAcrossRestarts() {
        // without this an empty answer reads as "no anomalies" for a stretch nobody watched
        clock.set(NOW.minus(Duration.ofMinutes(10)));
        AnomalyHistory started = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
        clock.set(NOW);
        String startedAt = "The gateway started at 2025-03-10T09:50:00Z and its in-memory history begins then: nothing judged before "
                + "was recorded, so this window shows nothing before 2025-03-10T09:50:00Z; an operator sets "
                + "OMCP_ANOMALY_HISTORY_REMOTE_WRITE to keep the history across restarts.";

        JsonObject empty = structured(call(tool(started), "{\"service\":\"payments-db\"}"));
        assertThat(empty.getJsonArray("rows")).isEmpty();
        assertThat(empty.getString("note")).isEqualTo("No anomaly scores of payments-db recorded in the last 1h. Scores are recorded "
                + "when get_service_health or detect_anomalies judge a service: call one of them first. " + startedAt);

        started.record(new AnomalyScoreSample("", "payments-db", "latency_p99", NOW.minusSeconds(60), 9, true, Optional.of("step"),
                Optional.empty()));
        JsonObject some = structured(call(tool(started), "{\"service\":\"payments-db\"}"));
        assertThat(some.getJsonArray("rows")).as("the rows since the start do not say the signal began to move then").hasSize(1);
        assertThat(some.getString("note")).isEqualTo(startedAt);
        assertThat(structured(call(tool(started), "{\"service\":\"payments-db\",\"window\":\"10m\"}")))
                .as("a window since the start misses nothing").doesNotContainKey("note");
    }

    @Test
    void theDefaultWindowFollowsTheRetention() {
        AnomalyHistory short15 = new AnomalyHistory(clock, new HistoryLimits(Duration.ofMinutes(15), 10, 10), Optional.empty());
        GetAnomalyHistoryTool tool = tool(short15);
        assertThat(tool.definition().inputSchema().getJsonObject("properties").getJsonObject("window").getString("default")).isEqualTo("15m");
        assertThat(structured(call(tool, "{}")).getString("window")).isEqualTo("15m");
    }

    @Test
    void badArguments_areErrorsThatSayWhatIsWrong() {
        GetAnomalyHistoryTool tool = tool(history);
        assertThat(call(tool, "{\"signal\":\"latency p99\"}").firstText()).contains("arguments.signal");
        assertThat(call(tool, "{\"limit\":10001}").firstText()).contains("arguments.limit: must be <= 10000");
        assertThat(call(tool, "{\"window\":\"an hour\"}").firstText()).contains("arguments.window");
        assertThat(call(tool, "{\"anomalousOnly\":1}").isError()).isTrue();
    }

    @Test
    void staysInsideTheGateway() {
        assertThat(tool(history).definition().annotations().readOnlyHint()).isTrue();
        assertThat(tool(history).definition().annotations().openWorldHint()).isFalse();
    }
}
