package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.FakeMetricsBackend.noisy;
import static dev.omcp.core.tools.observability.FakeMetricsBackend.stepAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.core.analysis.history.HistoryQuery;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.Series;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DetectAnomaliesToolTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private final ManualClock clock = new ManualClock(NOW);
    private final AnomalyHistory history = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());

    private static long minutesAgo(int minutes) {
        return NOW.minus(Duration.ofMinutes(minutes)).toEpochMilli();
    }

    /**
     * A slow database cascading up: db slows 9 minutes ago (4x), web, which calls api, which calls
     * db, breaks worst and first (10 minutes ago, 20x), api follows 7 minutes ago (5x).
     */
    private static FakeMetricsBackend cascade(String name) {
        return cascade(name, "db");
    }

    /** The cascade, with the database labelled {@code db} in the metrics (metric labels are free-form). */
    private static FakeMetricsBackend cascade(String name, String db) {
        FakeMetricsBackend prom = new FakeMetricsBackend(name)
                .serve(db, "latency_p99", stepAt(minutesAgo(9), 0.05, 0.20, 0.05))
                .serve("api", "latency_p99", stepAt(minutesAgo(7), 0.10, 0.50, 0.05))
                .serve("web", "latency_p99", stepAt(minutesAgo(10), 0.10, 2.00, 0.05))
                .serve("search", "latency_p99", noisy(0.08, 0.05));
        for (String service : List.of(db, "api", "web", "search")) {
            prom.serve(service, "error_rate", noisy(0.001, 0.1)).serve(service, "request_rate", noisy(40, 0.05))
                    .serve(service, "cpu", noisy(0.3, 0.05)).serve(service, "memory", noisy(2e8, 0.02));
        }
        return prom;
    }

    private static FakeTopologyBackend callChain() {
        return new FakeTopologyBackend("cluster").services("db", "api", "web", "search").calls("web", "api").calls("api", "db");
    }

    private DetectAnomaliesTool tool(InMemorySources sources) {
        return tool(Toolkit.builder(sources.registry(), clock).history(history));
    }

    private static DetectAnomaliesTool tool(Toolkit.Builder builder) {
        return new DetectAnomaliesTool(builder.build());
    }

    private static List<String> rankedServices(JsonObject result) {
        return result.getJsonArray("rootCauses").stream().map(c -> c.asJsonObject().getString("service")).toList();
    }

    @Test
    void whenTheListingsThatAnsweredHoldNoService_butAnotherFailed_theNoteDoesNotSayTheSourcesListNone() {
        FakeMetricsBackend empty = new FakeMetricsBackend("prom-a");
        FakeMetricsBackend broken = new FakeMetricsBackend("prom-b").knows("payments")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "connection refused"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(empty).add(broken)), "{}");

        // the failed source may list every service: "the metrics sources list no services" would be a false answer
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getString("note")).doesNotContain("list no services").contains("failedSources")
                .contains("pass service");
    }

    @Test
    void whatAListingSaysItLeftOut_isShownAsBackendWarnings_andTheNoteSaysServicesMayNotHaveBeenJudged() {
        FakeMetricsBackend prom = cascade("prom").listingWarning("Prometheus answered label values that are not strings (2)");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{}");

        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getJsonArray("backendWarnings")).singleElement().satisfies(w -> {
            assertThat(w.asJsonObject().getString("source")).isEqualTo("prom");
            assertThat(w.asJsonObject().getJsonArray("warnings").getString(0))
                    .isEqualTo("Prometheus answered label values that are not strings (2)");
        });
        assertThat(result.getString("note")).contains("The service listing of prom failed or left names out (see backendWarnings)");
        FakeMetricsBackend empty = new FakeMetricsBackend("prom-a").listingWarning("3 targets were left out");
        assertThat(ToolHarness.ok(tool(new InMemorySources().add(empty)), "{}").getString("note"))
                .doesNotContain("list no services").contains("left names out (see backendWarnings)");
    }

    @Test
    void whenAListingFailedBesideTheOnesThatAnswered_theRootCauseIsNamedOnlyAmongTheServicesJudged() {
        // the plugin's listing fails (its names cannot be checked), while its metric queries still answer
        FakeMetricsBackend plugin = new FakeMetricsBackend("history").knows("elsewhere")
                .failingDiscovery(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "discovery refused"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom")).addPlugin(plugin)), "{}");

        assertThat(result.getJsonObject("services").getBoolean("capped")).isFalse();
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("during")).isEqualTo("listing services");
        // the service the failed listing holds may be the one that went wrong first
        assertThat(result.getString("note")).contains("most likely root cause among the services analysed: web")
                .contains("The service listing of history failed or left names out (see failedSources)")
                .contains("pass service to judge one by name");
    }

    @Test
    void judgingTheGatewaysOwnAnomalySeries_readsOnlyTheCallersTenant_whileOtherMetricsGetNoTenantFilter() {
        FakeMetricsBackend receiver = new FakeMetricsBackend("history").serve("payments", "omcp_anomaly_score", noisy(1, 0.1))
                .serve("payments", "error_rate", noisy(0.01, 0.1));

        ToolHarness.ok(tool(new InMemorySources().add(receiver)), "{\"service\":\"payments\",\"metrics\":[\"omcp_anomaly_score\","
                + "\"error_rate\"]}", Principal.apiKey("acme-agent", "acme"));

        assertThat(receiver.queries).extracting(MetricQuery::metric, MetricQuery::labels).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("omcp_anomaly_score", java.util.Map.of("tenant", "acme")),
                org.assertj.core.groups.Tuple.tuple("error_rate", java.util.Map.of()));
    }

    @Test
    void askedOnlyTheGatewaysOwnSeries_withNoneOfTheCallersScores_saysTheyAreItsJudgements_notThatTheServiceIsKnown() {
        FakeMetricsBackend receiver = new FakeMetricsBackend("history").honouringLabelFilters()
                .serve("payments", "error_rate", noisy(0.01, 0.1))
                .serve("payments", "omcp_anomaly_score", Map.of("signal", "error_rate", "tenant", "globex"), noisy(1, 0.1));
        DetectAnomaliesTool tool = tool(new InMemorySources().add(receiver));
        Principal acme = Principal.apiKey("acme-agent", "acme");

        String known = ToolHarness.ok(tool, "{\"service\":\"payments\",\"metrics\":[\"omcp_anomaly_score\"]}", acme).getString("note");
        String unknown = ToolHarness.ok(tool, "{\"service\":\"nobody\",\"metrics\":[\"omcp_anomaly_score\"]}", acme).getString("note");

        assertThat(known).doesNotContain("know").startsWith("No score of your tenant for 'payments' is in omcp_anomaly_score")
                .contains("the gateway's anomaly history", "not a metric of the service", "get_anomaly_history")
                .contains("Judge the service's own metrics instead (curated: cpu, memory, request_rate, error_rate");
        assertThat(unknown).as("the same words whether the backend knows the name: they are the gateway's judgements")
                .isEqualTo(known.replace("'payments'", "'nobody'"));
    }

    @Test
    void oneOfTheGatewaysOwnSeriesSilentBesideAnotherMetric_isNotCalledAMisspelledName() {
        FakeMetricsBackend receiver = new FakeMetricsBackend("history").honouringLabelFilters()
                .serve("payments", "error_rate", noisy(0.01, 0.1));

        String note = ToolHarness.ok(tool(new InMemorySources().add(receiver)),
                "{\"service\":\"payments\",\"metrics\":[\"error_rate\",\"omcp_anomaly_detected\"]}", Principal.apiKey("acme-agent", "acme"))
                .getString("note");

        assertThat(note).doesNotContain("check the name").contains("No score of your tenant for 'payments' is in omcp_anomaly_detected");
    }

    @Test
    void theServiceTheOtherAnomalousServicesDependOnRanksFirstWhenTheTopologyIsKnown() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom")).add(callChain())), "{}");

        assertThat(result.getJsonObject("summary").getInt("anomalousServices")).isEqualTo(3);
        assertThat(rankedServices(result)).containsExactly("db", "web", "api");
        JsonObject first = result.getJsonArray("rootCauses").getJsonObject(0);
        assertThat(first.getJsonArray("dependents").getValuesAs(JsonString::getString)).containsExactlyInAnyOrder("api", "web");
        assertThat(first.getString("explanation")).contains("2 of 2 other anomalous services depend on it");
        assertThat(result.getBoolean("topologyUsed")).isTrue();
        assertThat(result.getJsonArray("topologySources").getString(0)).isEqualTo("cluster");
        assertThat(result.getString("note")).contains("most likely root cause: db");
        // the anomalies themselves: strongest first, with onset and what changed
        JsonObject strongest = result.getJsonArray("anomalies").getJsonObject(0);
        assertThat(strongest.getString("service")).isEqualTo("web");
        assertThat(strongest.getString("metric")).isEqualTo("latency_p99");
        assertThat(strongest.getString("direction")).isEqualTo("up");
        assertThat(strongest.getString("unit")).isEqualTo("seconds");
        assertThat(strongest.getJsonNumber("baseline").doubleValue()).isBetween(0.09, 0.11);
        assertThat(strongest.getJsonNumber("level").doubleValue()).isBetween(1.8, 2.2);
        assertThat(strongest.getJsonNumber("current").doubleValue()).isBetween(1.8, 2.2);
        assertThat(Instant.parse(strongest.getString("onset"))).isBetween(NOW.minus(Duration.ofMinutes(11)), NOW.minus(Duration.ofMinutes(9)));
        assertThat(result.getBoolean("partial")).isFalse();
        // the output schema names every member the answer, an anomaly and a root cause carry (metrics included)
        JsonObject declared = tool(new InMemorySources()).definition().outputSchema().orElseThrow().getJsonObject("properties");
        assertThat(declared.keySet()).containsAll(result.keySet()).contains("metrics");
        assertThat(declared.getJsonObject("anomalies").getJsonObject("items").getJsonObject("properties").keySet())
                .containsAll(strongest.keySet());
        assertThat(declared.getJsonObject("rootCauses").getJsonObject("items").getJsonObject("properties").keySet())
                .containsAll(first.keySet());
    }

    @Test
    void anHourWindowHoldingAShorterStep_reportsTheStepsLevel_andOneThatEndedIsBackAtBaselineNow() {
        // db slowed 25 minutes ago (20x); api's errors jumped 40 minutes ago for 5 minutes and recovered
        long burstFrom = minutesAgo(40);
        long burstTo = minutesAgo(35);
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("db", "latency_p99", stepAt(minutesAgo(25), 0.022, 0.45, 0.02))
                .serve("api", "error_rate", t -> (t >= burstFrom && t < burstTo ? 0.08 : 0.002) * (1 + 0.05 * FakeMetricsBackend.jitter(t)));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"metrics\":[\"latency_p99\",\"error_rate\"],\"window\":\"1h\"}");

        JsonObject db = anomaly(result, "db", "latency_p99");
        assertThat(db.getJsonNumber("baseline").doubleValue()).isBetween(0.021, 0.023);
        assertThat(db.getJsonNumber("level").doubleValue()).as(db.toString()).isBetween(0.44, 0.46);
        assertThat(db.getJsonNumber("current").doubleValue()).isBetween(0.44, 0.46);
        assertThat(db.getString("note")).containsPattern("\\(0\\.022\\d* -> 0\\.4[45]\\d*\\)");
        JsonObject api = anomaly(result, "api", "error_rate");
        assertThat(api.getString("kind")).isEqualTo("spike");
        assertThat(api.getJsonNumber("level").doubleValue()).as(api.toString()).isBetween(0.075, 0.085);
        assertThat(api.getJsonNumber("current").doubleValue()).isBetween(0.0018, 0.0022);
        assertThat(api.getString("note")).contains("back at 0.00");
    }

    @Test
    void aRequestRateAFewPerCentOff_isNoAnomaly_butAFortyPerCentDropIs() {
        // tiny noise makes +7 % dozens of sigmas; the tools' request-rate minimum (20 % of the level) leaves it out
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("shop", "request_rate", stepAt(minutesAgo(10), 40, 42.8, 0.002))
                .serve("cart", "request_rate", stepAt(minutesAgo(10), 40, 24, 0.002));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"metrics\":[\"request_rate\"]}");

        assertThat(result.getJsonArray("anomalies")).as(result.toString()).hasSize(1);
        JsonObject cart = anomaly(result, "cart", "request_rate");
        assertThat(cart.getString("direction")).isEqualTo("down");
        assertThat(cart.getJsonNumber("level").doubleValue()).isBetween(23.8, 24.2);
        assertThat(rankedServices(result)).containsExactly("cart");
        assertThat(CuratedMetricNames.detectionSettings("request_rate").minimumRelativeChange()).isEqualTo(0.2);
    }

    /**
     * db's p99 leaves its histogram (histogram_quantile answers +Inf) 8 minutes ago: read as gaps, as
     * before, nothing was found. web's p99 goes 20x on a noisy baseline; api's error rate, exactly 0
     * before, moves to 0.6 %: against the noise of exact zeros that scored millions of sigmas and came
     * first. Now db comes first, its level said in words, then web, then api by its modest size.
     */
    @Test
    void aP99AboveTheLargestBucket_isFoundAndListedFirstWithoutANumber_andAFlatZeroErrorRateRanksByItsSize() {
        long db = minutesAgo(8);
        long api = minutesAgo(9);
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("db", "latency_p99", t -> t < db ? 0.05 * (1 + 0.05 * FakeMetricsBackend.jitter(t)) : Double.POSITIVE_INFINITY)
                .serve("web", "latency_p99", stepAt(minutesAgo(10), 0.10, 2.00, 0.05))
                .serve("api", "error_rate", t -> t < api ? 0 : 0.006);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"metrics\":[\"latency_p99\",\"error_rate\"]}");

        List<JsonObject> anomalies = result.getJsonArray("anomalies").getValuesAs(JsonObject.class);
        assertThat(anomalies).extracting(a -> a.getString("service")).containsExactly("db", "web", "api");
        JsonObject slowest = anomalies.getFirst();
        assertThat(slowest.getString("kind")).isEqualTo("step");
        assertThat(slowest.getBoolean("levelAboveLargestBucket")).isTrue();
        assertThat(slowest.getBoolean("currentAboveLargestBucket")).isTrue();
        assertThat(slowest.keySet()).doesNotContain("level", "current");
        assertThat(slowest.getJsonNumber("baseline").doubleValue()).isBetween(0.048, 0.052);
        assertThat(slowest.getJsonNumber("score").doubleValue()).isGreaterThanOrEqualTo(20);
        assertThat(Instant.parse(slowest.getString("onset"))).isBetween(NOW.minus(Duration.ofMinutes(9)), NOW.minus(Duration.ofMinutes(7)));
        assertThat(slowest.getString("note")).contains("above the largest histogram bucket", "+Inf");
        // the strongest finite anomaly still outscores the bound, which is why db is listed first by its level, not its score
        assertThat(anomalies.get(1).getJsonNumber("score").doubleValue()).isGreaterThan(slowest.getJsonNumber("score").doubleValue());
        assertThat(anomalies.get(2).getJsonNumber("score").doubleValue()).isBetween(3.5, 6.0);
        assertThat(result.toString()).doesNotContain("Infinity", "NaN");
        JsonObject declared = tool(new InMemorySources()).definition().outputSchema().orElseThrow().getJsonObject("properties");
        assertThat(declared.getJsonObject("anomalies").getJsonObject("items").getJsonObject("properties").keySet())
                .containsAll(slowest.keySet());
        // the ranking counts db fully severe, and onset decides between it and web
        assertThat(rankedServices(result)).contains("db", "web", "api");
        String dbSeverity = result.getJsonArray("rootCauses").stream().map(JsonValue::asJsonObject)
                .filter(c -> c.getString("service").equals("db")).findFirst().orElseThrow().getJsonArray("factors").stream()
                .map(JsonValue::asJsonObject).filter(f -> f.getString("name").equals("severity")).findFirst().orElseThrow()
                .getJsonNumber("value").toString();
        assertThat(Double.parseDouble(dbSeverity)).isEqualTo(1.0);
        // the history keeps that db's score is a lower bound, so the post-mortem's contributing signals also lead with it
        List<HistoryRow> rows = history.query(new HistoryQuery("", Optional.empty(), Optional.empty(), NOW.minus(Duration.ofHours(1)), NOW,
                HistoryQuery.MAX_LIMIT, true)).rows();
        assertThat(rows).filteredOn(HistoryRow::levelAboveLargestBucket).extracting(HistoryRow::service).containsExactly("db");
        assertThat(dev.omcp.core.analysis.postmortem.ContributingSignal.fromHistory(rows))
                .extracting(dev.omcp.core.analysis.postmortem.ContributingSignal::service).containsExactly("db", "web", "api");
    }

    private static JsonObject anomaly(JsonObject result, String service, String metric) {
        return result.getJsonArray("anomalies").stream().map(JsonValue::asJsonObject)
                .filter(a -> a.getString("service").equals(service) && a.getString("metric").equals(metric)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + metric + " anomaly of " + service + " in " + result));
    }

    /** Traffic-driven CPU: +-70 % round its level over the day, highest at noon (NOW), 1 % noise. */
    private static double dailyCpu(long t) {
        return 0.3 * (1 + 0.7 * Math.sin(2 * Math.PI * (t / 3_600_000.0 - 6) / 24)) * (1 + 0.01 * FakeMetricsBackend.jitter(t));
    }

    /**
     * The series with the points between {@code fromAgo} and {@code toAgo} before its end sent again
     * after its last one (with the same values): a connector that merges two stores' pages, or
     * appends a page it fetched late, and breaks the SDK's promise of ascending, distinct timestamps.
     */
    private static Series withAPageSentAgain(Series s, Duration fromAgo, Duration toAgo) {
        long end = s.timeAt(s.size() - 1);
        List<Long> times = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            times.add(s.timeAt(i));
            values.add(s.valueAt(i));
        }
        for (int i = 0; i < s.size(); i++) {
            if (s.timeAt(i) >= end - fromAgo.toMillis() && s.timeAt(i) < end - toAgo.toMillis()) {
                times.add(s.timeAt(i));
                values.add(s.valueAt(i));
            }
        }
        return new Series(s.labels(), times.stream().mapToLong(Long::longValue).toArray(),
                values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * A surge of 40 % at the daily peak is a seasonal deviation against the same time of the two
     * previous days; against the flat median of a day and a half it is inside the daily curve's
     * spread. A connector that answered the series out of order had its window anchored at the
     * re-sent page's end, its history cut there, and the surge judged against that flat median.
     */
    @Test
    void aSeriesAConnectorAnswersOutOfOrder_isJudgedAsItsSortedSelf_againstTheSameTimeOfThePreviousDays() {
        long surge = minutesAgo(40);
        FakeMetricsBackend.Curve cpu = t -> dailyCpu(t) * (t >= surge ? 1.4 : 1);
        String args = "{\"service\":\"shop\",\"metrics\":[\"cpu\"],\"window\":\"2h\"}";
        JsonObject sorted = ToolHarness.ok(tool(new InMemorySources().add(new FakeMetricsBackend("prom").serve("shop", "cpu", cpu))), args);
        assertThat(anomaly(sorted, "shop", "cpu").getString("kind")).isEqualTo("seasonal-deviation");

        FakeMetricsBackend unsorted = new FakeMetricsBackend("prom").serve("shop", "cpu", cpu)
                .reordering(s -> withAPageSentAgain(s, Duration.ofHours(30), Duration.ofHours(29)));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(unsorted)), args);

        JsonObject found = anomaly(result, "shop", "cpu");
        assertThat(found.getString("kind")).as(found.toString()).isEqualTo("seasonal-deviation");
        assertThat(found.getString("onset")).isEqualTo(anomaly(sorted, "shop", "cpu").getString("onset"));
    }

    @Test
    void aMetricNoSourceHasBesideOnesThatAnswer_isNamedInTheNote_notDroppedSilently() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("shop", "latency_p99", noisy(0.1, 0.02));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"shop\",\"metrics\":[\"latency_p99\",\"latency_p90\"]}");

        assertThat(result.getJsonObject("summary").getInt("series")).isEqualTo(1);
        assertThat(result.getString("note")).contains("No source returned any series of latency_p90 for shop", "check the name",
                "latency_p99");
        // a metric that answered is not named
        assertThat(result.getString("note")).doesNotContain("series of latency_p99");
    }

    @Test
    void aCounterAskedByName_getsAHintToJudgeARateInstead() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("shop", "http_requests_total", t -> (t - NOW.toEpochMilli()) / 1000.0 + 1e6);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"shop\",\"metrics\":[\"http_requests_total\"]}");

        assertThat(result.getString("note")).contains("http_requests_total looks like a counter", "request_rate");
    }

    @Test
    void misspelledMetrics_ofOneService_getTheNamesTheyMostLikelyMeant() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("shop", "http_requests_total", t -> 5)
                .serve("shop", "queue_depth", t -> 1);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"shop\",\"metrics\":[\"eror_rate\",\"http_requests_totl\",\"kafka_lag\"]}");

        assertThat(result.getString("note")).contains("hold none of the metrics asked")
                .contains("Did you mean 'error_rate' for 'eror_rate', 'http_requests_total' for 'http_requests_totl'?")
                .doesNotContain("kafka_lag'");
    }

    @Test
    void corrections_fromADiscoveryThatWarned_showItsWarnings_andSayTheNamesMayBeIncomplete() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("shop", "http_requests_total", t -> 5)
                .discoveryWarning("metric names: Prometheus answered values longer than 1024 characters (2); they were left out");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"shop\",\"metrics\":[\"http_requests_totl\"]}");

        assertThat(result.getString("note")).contains("Did you mean 'http_requests_total' for 'http_requests_totl'?")
                .contains("The metric names these suggestions come from may be incomplete: a source's metric discovery warned "
                        + "(see backendWarnings).");
        assertThat(result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("source")).isEqualTo("prom");
            assertThat(w.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString)).containsExactly(
                    "metric names: Prometheus answered values longer than 1024 characters (2); they were left out");
        });
    }

    @Test
    void aMisspelledMetric_ofOneService_isCorrectedTheSameWhetherAnotherTenantJudgedTheService() {
        List<String> notes = new ArrayList<>();
        for (boolean globexJudged : List.of(true, false)) {
            FakeMetricsBackend receiver = new FakeMetricsBackend("receiver").honouringLabelFilters().serve("shop", "queue_depth", t -> 1);
            if (globexJudged) {
                receiver.serve("shop", "omcp_anomaly_score", Map.of("signal", "queue_depth", "tenant", "globex"), t -> 1);
            }
            String call = "{\"service\":\"shop\",\"metrics\":[\"omcp_anomaly_scor\"]}";
            notes.add(ToolHarness.ok(tool(new InMemorySources().add(receiver)), call, Principal.apiKey("acme-agent", "acme"))
                    .getString("note"));
        }
        assertThat(notes.get(0)).as("a correction to omcp_anomaly_score would tell acme that some tenant judged shop")
                .isEqualTo(notes.get(1));
    }

    @Test
    void misspelledCuratedNames_acrossEveryService_getTheCuratedNamesTheyMostLikelyMeant() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("shop", "latency_p99", noisy(0.1, 0.02))
                .serve("cart", "latency_p99", noisy(0.1, 0.02));
        JsonObject none = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"metrics\":[\"eror_rate\"]}");
        assertThat(none.getString("note")).contains("hold none of the metrics asked", "Did you mean 'error_rate' for 'eror_rate'?");

        JsonObject some = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"metrics\":[\"latency_p99\",\"latncy_p50\"]}");
        assertThat(some.getString("note")).contains("No source returned any series of latncy_p50 for the analysed services",
                "Did you mean 'latency_p50' for 'latncy_p50'?");
    }

    @Test
    void metricsNoneOfTheServicesHold_withNoNameClose_getTheCuratedNamesAndWhereToFindTheSourcesOwn() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("shop", "latency_p99", noisy(0.1, 0.02))
                .serve("cart", "latency_p99", noisy(0.1, 0.02));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"metrics\":[\"db_lock_waits\"]}");
        // nothing close to offer: without the names an agent is left guessing what to ask next
        assertThat(result.getString("note")).contains("hold none of the metrics asked", "curated: cpu, memory",
                "see query_metrics").doesNotContain("Did you mean");
    }

    @Test
    void withoutATopologySourceTheRankingRestsOnOnsetAndSeverityAndSaysSo() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom"))), "{}");
        assertThat(result.getBoolean("topologyUsed")).isFalse();
        assertThat(rankedServices(result)).first().isEqualTo("web");
        assertThat(result.getString("rankingNote")).contains("ranked by onset and severity only",
                "no topology source is configured (a kubernetes source provides one)");
        assertThat(result.getBoolean("partial")).isFalse();
    }

    @Test
    void anAnomalousServiceTheMetricsSpellInAnotherCase_isNotInTheTopology_andGetsTheTopologysSpelling() {
        // Prometheus labels the database Db, the cluster calls it db: names stay exact, so it is not walked,
        // but the answer says which topology name it most likely is
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom", "Db")).add(callChain())), "{}");
        assertThat(rankedServices(result)).contains("Db", "api", "web");
        assertThat(result.getJsonArray("notInTopology").getValuesAs(JsonString::getString)).containsExactly("Db");
        assertThat(result.getJsonObject("notInTopologyDidYouMean").getJsonArray("Db").getValuesAs(JsonString::getString))
                .containsExactly("db");
        assertThat(result.getString("rankingNote")).endsWith("not in the topology: Db; the topology has 'db' for 'Db' (names are "
                + "matched exactly, case included: get_blast_radius and get_topology take the topology's spelling)");
        JsonObject declared = tool(new InMemorySources()).definition().outputSchema().orElseThrow().getJsonObject("properties");
        assertThat(declared.keySet()).containsAll(result.keySet());

        JsonObject exact = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom")).add(callChain())), "{}");
        assertThat(exact.containsKey("notInTopologyDidYouMean")).isFalse();
    }

    @Test
    void aTopologyThatRelatesNoneOfTheAnomalousServicesIsSaidToHaveDecidedNothing() {
        FakeTopologyBackend unrelated = new FakeTopologyBackend("cluster").services("db", "api", "web", "search");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom")).add(unrelated)), "{}");
        assertThat(result.getBoolean("topologyUsed")).isTrue();
        assertThat(result.getString("rankingNote")).contains("relates none of the anomalous services", "onset and severity decided");
        assertThat(result.getJsonArray("sources").getValuesAs(JsonString::getString)).containsExactly("prom", "cluster");
    }

    @Test
    void aFailedTopologySourceIsNamedAndTheRankingGoesOnWithoutIt() {
        FakeTopologyBackend broken = callChain().failing(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "API server answered 503"));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom")).add(broken)), "{}");
        assertThat(result.getBoolean("topologyUsed")).isFalse();
        assertThat(result.getBoolean("partial")).isTrue();
        JsonObject failed = result.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("source")).isEqualTo("cluster");
        assertThat(failed.getString("during")).isEqualTo("reading the topology");
        assertThat(result.getString("rankingNote")).contains("every topology source failed");
        assertThat(rankedServices(result)).hasSize(3);
    }

    @Test
    void everyMetricOfEveryServiceIsAskedInOneBatchAndEveryScoreIsRecorded() {
        FakeMetricsBackend prom = cascade("prom");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{}");
        assertThat(prom.queries).hasSize(4 * 5);
        assertThat(prom.queries).extracting(MetricQuery::metric).containsOnly("latency_p99", "error_rate", "request_rate", "cpu", "memory");
        assertThat(result.getJsonObject("services").getInt("analysed")).isEqualTo(4);
        assertThat(result.getJsonObject("services").getBoolean("capped")).isFalse();
        assertThat(result.getJsonObject("history").getInt("recorded")).isEqualTo(20);
        List<HistoryRow> anomalous = history.query(new HistoryQuery("", Optional.empty(), Optional.empty(), NOW.minusSeconds(60), NOW,
                100, true)).rows();
        assertThat(anomalous).extracting(HistoryRow::service).containsExactlyInAnyOrder("db", "api", "web");
    }

    @Test
    void oneServiceAndChosenMetricsNarrowTheQuestion() {
        FakeMetricsBackend prom = cascade("prom");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"db\",\"metrics\":[\"latency_p99\",\"error_rate\"],\"window\":\"30m\"}");
        assertThat(prom.queries).extracting(MetricQuery::service).containsOnly("db");
        assertThat(prom.queries).extracting(MetricQuery::metric).containsExactlyInAnyOrder("latency_p99", "error_rate");
        assertThat(result.getString("window")).isEqualTo("30m");
        assertThat(rankedServices(result)).isEmpty();
        assertThat(result.getString("rankingNote")).isEqualTo("only db was judged, so nothing was ranked against it; run without service to rank");
        assertThat(result.getString("note")).as("judged alone it is no root cause, only anomalous")
                .doesNotContain("most likely root cause")
                .contains("Only this service was judged, so this says nothing about the root cause: run detect_anomalies without service");
    }

    @Test
    void oneServiceJudgedAlone_isNotListedAsARootCause_sinceNothingWasRankedAgainstIt() {
        // api is a victim of db here: rootCauses [api, score 1.0] would tell an agent reading the structured
        // answer the opposite of the note
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom")).add(callChain())),
                "{\"service\":\"api\"}");
        assertThat(result.getJsonObject("summary").getInt("anomalous")).isPositive();
        assertThat(result.getJsonArray("rootCauses")).isEmpty();
        assertThat(result.getString("rankingNote"))
                .isEqualTo("only api was judged, so nothing was ranked against it; run without service to rank");
    }

    @Test
    void theServiceListIsCappedAndTheCapIsSaid() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(cascade("prom"))), "{\"maxServices\":2}");
        JsonObject services = result.getJsonObject("services");
        assertThat(services.getInt("analysed")).isEqualTo(2);
        assertThat(services.getInt("total")).isEqualTo(4);
        assertThat(services.getBoolean("capped")).isTrue();
        assertThat(result.getString("note")).contains("4 services are known; analysed the first 2 by name", "maxServices");
        // api and db, the first two, both deviate; the cause may be among the services not judged
        assertThat(rankedServices(result)).isNotEmpty();
        assertThat(result.getString("note")).contains("most likely root cause among the services analysed: ")
                .doesNotContain("most likely root cause: ");
    }

    @Test
    void theDefaultSensitivityIsTheShippedOneAndLowMissesWhatMediumCatches() {
        // p99 up by about 3.2 robust sigmas (no point reaches 5) since the window began: medium's 3.5 is reached by
        // enough points to hold its 3-point dwell, low's 5 by none
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "latency_p99", stepAt(minutesAgo(14), 1.0, 1.12, 0.05));
        DetectAnomaliesTool tool = tool(new InMemorySources().add(prom));
        JsonObject medium = ToolHarness.ok(tool, "{\"service\":\"api\",\"metrics\":[\"latency_p99\"]}");
        assertThat(medium.getString("sensitivity")).isEqualTo("medium");
        assertThat(medium.getJsonObject("summary").getInt("anomalous")).isEqualTo(1);
        JsonObject low = ToolHarness.ok(tool, "{\"service\":\"api\",\"metrics\":[\"latency_p99\"],\"sensitivity\":\"low\"}");
        assertThat(low.getJsonObject("summary").getInt("anomalous")).isZero();
        assertThat(low.getString("note")).startsWith("No anomaly at sensitivity low in the last 15m across 1 service");
        assertThat(low.getJsonArray("rootCauses")).isEmpty();
    }

    @Test
    void aSeriesWithTooLittleHistoryIsReportedAsSuchNotAsNormal() {
        long tenMinutesAgo = minutesAgo(10);
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("new-svc", "latency_p99", t -> t < tenMinutesAgo ? Double.NaN : 0.1);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"new-svc\",\"metrics\":[\"latency_p99\"]}");
        assertThat(result.getJsonObject("summary").getInt("insufficientData")).isEqualTo(1);
        assertThat(result.getJsonObject("summary").getInt("normal")).isZero();
        JsonObject lacking = result.getJsonArray("insufficientData").getJsonObject(0);
        assertThat(lacking.getString("note")).contains("baseline");
        assertThat(result.getString("note")).contains("1 series had too little data");
        assertThat(result.getJsonObject("history").getInt("recorded")).as("no score is not a 0 score").isZero();
    }

    @Test
    void anUnknownServiceOrOneWithoutTheMetricsIsSaidSoRatherThanCalledNormal() {
        FakeMetricsBackend prom = cascade("prom").knows("batch/nightly");
        DetectAnomaliesTool tool = tool(new InMemorySources().add(prom));
        assertThat(ToolHarness.ok(tool, "{\"service\":\"dbb\"}").getString("note"))
                .startsWith("No metrics source knows a service named 'dbb'").contains("list_services");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"nightly\"}").getString("note")).as("batch/nightly is not nightly")
                .doesNotContain("Did you mean");
        JsonObject empty = ToolHarness.ok(tool, "{\"service\":\"batch/nightly\"}");
        assertThat(empty.getJsonObject("summary").getInt("series")).isZero();
        assertThat(empty.getString("note")).startsWith("The metrics sources know the service but hold none of the metrics asked");
    }

    @Test
    void withoutAMetricsSourceNothingIsJudgedAndTheNoteSaysWhatToConfigure() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(callChain())), "{}");
        assertThat(result.getJsonObject("summary").getInt("series")).isZero();
        assertThat(result.getString("note")).contains("No connected source can answer metric queries", "PROMETHEUS_URL");
    }

    @Test
    void oneHangingSourceOfThreeLeavesAPartialAnswerWithinTheDeadline() {
        FakeMetricsBackend hung = new FakeMetricsBackend("prom-c").hanging();
        DetectAnomaliesTool tool = tool(Toolkit.builder(new InMemorySources().add(cascade("prom-a")).add(cascade("prom-b")).add(hung)
                .add(callChain()).registry(), clock).history(history).timeouts(Duration.ofMillis(300), Duration.ofSeconds(2)));
        long start = System.nanoTime();
        JsonObject result = ToolHarness.ok(tool, "{\"metrics\":[\"latency_p99\"]}");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("failedSources").stream().map(JsonValue::asJsonObject).map(f -> f.getString("source")))
                .containsOnly("prom-c");
        assertThat(rankedServices(result)).first().isEqualTo("db");
        assertThat(took).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void aListedServiceWhoseNameIsTooLongToRecord_isStillJudged_andTheOtherServicesScoresAreRecorded() {
        // a backend lists services by any label value; one longer than a history name may be must not fail the whole call
        String longName = "svc-" + "x".repeat(300);
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve(longName, "error_rate", noisy(0.001, 0.1))
                .serve("db", "error_rate", noisy(0.001, 0.1));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"metrics\":[\"error_rate\"]}");

        assertThat(result.getJsonObject("summary").getInt("series")).as("both services judged").isEqualTo(2);
        assertThat(result.getJsonObject("history").getInt("recorded")).isEqualTo(1);
        List<HistoryRow> rows = history.query(new HistoryQuery("", Optional.empty(), Optional.empty(), NOW.minusSeconds(60), NOW,
                HistoryQuery.MAX_LIMIT, false)).rows();
        assertThat(rows).extracting(HistoryRow::service).containsExactly("db");
    }

    @Test
    void badArgumentsAreRefusedWithWhatIsWrong() {
        DetectAnomaliesTool tool = tool(new InMemorySources());
        assertThat(ToolHarness.error(tool, "{\"sensitivity\":\"extreme\"}")).contains("arguments.sensitivity", "low", "medium", "high");
        assertThat(ToolHarness.error(tool, "{\"metrics\":[]}")).contains("arguments.metrics");
        assertThat(ToolHarness.error(tool, "{\"metrics\":[\"sum(up)\"]}")).contains("arguments.metrics");
        assertThat(ToolHarness.error(tool, "{\"metrics\":[\"cpu\",\"cpu\"]}")).contains("arguments.metrics");
        assertThat(ToolHarness.error(tool, "{\"maxServices\":0}")).contains("arguments.maxServices");
        assertThat(ToolHarness.error(tool, "{\"window\":\"1m\"}")).contains("window 1m is outside 2m..1d");
        assertThat(ToolHarness.error(tool, "{\"window\":\"99999d\"}")).contains("window 99999d is outside 2m..1d").doesNotContain("30d");
        assertThat(ToolHarness.error(tool, "{\"service\":\"\"}")).contains("arguments.service");
        // an argument that cannot apply is refused, not silently ignored
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"maxServices\":3}")).isEqualTo("detect_anomalies: maxServices "
                + "applies only without service: leave service out to judge every service (up to maxServices), or leave maxServices "
                + "out to judge api alone");
    }

    @Test
    void theDefinitionIsReadOnlyAndItsDefaultSensitivityIsTheShippedDefault() {
        var definition = tool(new InMemorySources()).definition();
        assertThat(definition.name()).isEqualTo("detect_anomalies");
        assertThat(definition.annotations().readOnlyHint()).isTrue();
        assertThat(definition.inputSchema().getJsonObject("properties").getJsonObject("sensitivity").getString("default"))
                .isEqualTo(dev.omcp.core.analysis.anomaly.AnomalyDetector.DEFAULT_SENSITIVITY.wireName());
    }
}
