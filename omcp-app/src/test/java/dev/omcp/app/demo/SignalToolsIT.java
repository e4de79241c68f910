package dev.omcp.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.CheckedToolCalls;
import dev.omcp.app.support.McpHttpClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The metrics, logs, health and anomaly tools through {@code /mcp} against the demo shop, whose
 * payments database slowed down 25 minutes ago: each gives a meaningful answer about the incident.
 */
class SignalToolsIT {
    private static DemoGateway demo;
    private static McpHttpClient client;
    private static CheckedToolCalls tools;

    @BeforeAll
    static void start() {
        demo = DemoGateway.start();
        client = new McpHttpClient(demo.baseUrl());
        client.initialize();
        tools = new CheckedToolCalls(client);
    }

    @AfterAll
    static void stop() {
        demo.close();
    }

    /**
     * Calls a tool; its structured answer must match the output schema tools/list published for it
     * and carry no member that schema leaves undeclared.
     */
    static JsonObject tool(String name, String arguments) {
        return tools.tool(name, arguments);
    }

    @Test
    void queryMetrics_showsThePaymentsDatabaseLatencyWithTheQueryThatRan() {
        JsonObject result = tool("query_metrics", "{\"service\":\"payments-db\",\"metric\":\"latency_p99\",\"duration\":\"1h\"}");
        // spec 4.4: resolvedSeries and resolvedLabel
        assertThat(result.getString("resolvedSeries")).contains("histogram_quantile(0.99", "job=\"payments-db\"");
        assertThat(result.getString("resolvedLabel")).isEqualTo("job");
        assertThat(result.getBoolean("partial")).isFalse();
        JsonObject series = result.getJsonArray("series").getJsonObject(0);
        // slower now than an hour ago: the incident began 25 minutes ago
        List<Double> values = series.getJsonObject("downsampled").getJsonArray("values").stream()
                .filter(v -> v.getValueType() == JsonValue.ValueType.NUMBER).map(v -> ((jakarta.json.JsonNumber) v).doubleValue()).toList();
        assertThat(values.getLast()).isGreaterThan(values.getFirst() * 5);
        assertThat(result.toString()).doesNotContain("127.0.0.1");
    }

    @Test
    void serviceHealth_findsThePaymentsDatabaseAndPaymentsUnwell() {
        JsonObject db = tool("get_service_health", "{\"service\":\"payments-db\"}");
        assertThat(db.getString("status")).isIn("degraded", "critical");
        assertThat(db.getJsonArray("anomalies").toString()).contains("latency_p99");
        JsonObject payments = tool("get_service_health", "{\"service\":\"payments\"}");
        assertThat(payments.getString("status")).isEqualTo("critical");
        assertThat(payments.getJsonArray("drivers").toString()).contains("error_rate");
        assertThat(payments.getJsonArray("signals")).hasSize(5);
        JsonObject catalogCache = tool("get_service_health", "{\"service\":\"catalog-cache\"}");
        assertThat(catalogCache.getString("status")).isEqualTo("healthy");
    }

    @Test
    void aNamespacedName_asTheLogStreamsSpellIt_readsTheSameMetrics() {
        JsonObject namespaced = tool("get_service_health", "{\"service\":\"shop/payments\"}");
        assertThat(namespaced.getString("status")).as(namespaced.toString()).isEqualTo("critical");
        JsonObject metrics = tool("query_metrics", "{\"service\":\"shop/payments\",\"metric\":\"error_rate\",\"duration\":\"15m\"}");
        assertThat(metrics.getString("resolvedSeries")).contains("job=\"payments\",namespace=\"shop\"");
        assertThat(metrics.getJsonArray("series")).isNotEmpty();
        JsonObject unknown = tool("get_service_health", "{\"service\":\"elsewhere/payments\"}");
        assertThat(unknown.getString("status")).as("no such namespace").isEqualTo("unknown");
        assertThat(unknown.getString("note")).endsWith("Did you mean 'payments'?");
    }

    @Test
    void detectAnomalies_ranksThePaymentsDatabaseAsTheRootCause() {
        JsonObject result = tool("detect_anomalies", "{}");
        assertThat(result.getJsonArray("rootCauses").getJsonObject(0).getString("service")).isEqualTo("payments-db");
        List<String> anomalous = result.getJsonArray("rootCauses").stream().map(c -> c.asJsonObject().getString("service")).toList();
        assertThat(anomalous).contains("payments", "checkout");
        assertThat(anomalous).doesNotContain("catalog-cache", "inventory");
        assertThat(result.getBoolean("partial")).isFalse();
    }

    @Test
    void detectAnomalies_overAnHour_reportsTheLevelTheDatabaseSlowedTo_andNoTrafficWobble() {
        // the window is longer than the 25-minute incident: most of it is still at the old level
        JsonObject result = tool("detect_anomalies", "{\"window\":\"1h\"}");

        JsonObject latency = result.getJsonArray("anomalies").stream().map(JsonValue::asJsonObject)
                .filter(a -> a.getString("service").equals("payments-db") && a.getString("metric").equals("latency_p99"))
                .findFirst().orElseThrow();
        assertThat(latency.getJsonNumber("baseline").doubleValue()).isLessThan(0.05);
        assertThat(latency.getJsonNumber("level").doubleValue()).as(latency.toString()).isGreaterThan(0.3);
        assertThat(latency.getJsonNumber("current").doubleValue()).isGreaterThan(0.3);
        // the shop's traffic is not touched by the incident: a straight line's miss on the daily curve is no anomaly
        assertThat(result.getJsonArray("anomalies").stream().map(a -> a.asJsonObject().getString("metric")))
                .as(result.getJsonArray("anomalies").toString()).doesNotContain("request_rate");
        assertThat(result.getJsonArray("rootCauses").getJsonObject(0).getString("service")).isEqualTo("payments-db");
    }

    @Test
    void detectAnomalies_overTwoHours_judgesAgainstTheSameTimeOfThePreviousDays_soTheDailyCurveIsNoAnomaly() {
        // from 2h on the tools read two days more and compare with the same time of day; a line
        // through the hours before listed CPU and request-rate steps on the morning climb
        JsonObject result = tool("detect_anomalies", "{\"window\":\"2h\"}");

        List<JsonObject> anomalies = result.getJsonArray("anomalies").getValuesAs(JsonObject.class);
        assertThat(anomalies).as(result.toString()).isNotEmpty()
                .allSatisfy(a -> assertThat(a.getString("kind")).isEqualTo("seasonal-deviation"));
        assertThat(anomalies.stream().map(a -> a.getString("service"))).doesNotContain("catalog", "catalog-cache", "inventory");
        assertThat(anomalies.stream().map(a -> a.getString("metric"))).doesNotContain("request_rate");
        assertThat(result.getJsonArray("rootCauses").getJsonObject(0).getString("service")).isEqualTo("payments-db");
        // the range read reaches two days and a half hour before the window
        assertThat(Instant.parse(result.getString("from"))).isBefore(Instant.parse(result.getString("to")).minus(java.time.Duration.ofDays(2)));
    }

    @Test
    void detectAnomalies_ranksByTopologyDependents_fromTheTracedServiceCalls() {
        JsonObject result = tool("detect_anomalies", "{}");

        // the zipkin plugin's dependency links put payments, checkout and frontend downstream of the database
        assertThat(result.getJsonArray("topologySources").toString()).contains("kubernetes", "zipkin");
        assertThat(result.getBoolean("topologyUsed")).isTrue();
        JsonObject database = result.getJsonArray("rootCauses").getJsonObject(0);
        assertThat(database.getString("service")).isEqualTo("payments-db");
        assertThat(database.getJsonArray("dependents").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactlyInAnyOrder("payments", "checkout", "frontend");
        JsonObject dependents = database.getJsonArray("factors").stream().map(JsonValue::asJsonObject)
                .filter(f -> f.getString("name").equals("dependents")).findFirst().orElseThrow();
        assertThat(dependents.getJsonNumber("value").doubleValue()).isEqualTo(1.0);
        assertThat(dependents.getString("detail")).isEqualTo("3 of 3 other anomalous services depend on it");
        // payments sits between the database and its callers
        JsonObject payments = result.getJsonArray("rootCauses").stream().map(JsonValue::asJsonObject)
                .filter(c -> c.getString("service").equals("payments")).findFirst().orElseThrow();
        assertThat(payments.getJsonArray("dependents").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactlyInAnyOrder("checkout", "frontend");
        assertThat(result.getString("rankingNote")).doesNotContain("relates none of the anomalous services");
    }

    @Test
    void theKubeletScrapeJob_isListedAsTheRealJobItIs_butIsNoSuspectInTheIncident() {
        // cAdvisor's container series and the kubelet's own metrics share the job label kubelet, as in a real cluster
        JsonObject services = tool("list_services", "{}");
        assertThat(services.getJsonArray("services").stream().map(s -> s.asJsonObject().getString("name"))).contains("kubelet");

        // its cpu and memory are the kubelet's own process, not every container summed, so the database's hot
        // container does not reappear as a kubelet anomaly
        JsonObject kubelet = tool("detect_anomalies", "{\"service\":\"kubelet\"}");
        assertThat(kubelet.getJsonObject("summary").getInt("anomalous")).as(kubelet.toString()).isZero();
        JsonObject all = tool("detect_anomalies", "{}");
        assertThat(all.getJsonArray("rootCauses").stream().map(c -> c.asJsonObject().getString("service"))).doesNotContain("kubelet");
        assertThat(all.getJsonArray("notInTopology").getValuesAs(jakarta.json.JsonString::getString)).doesNotContain("kubelet");
    }

    @Test
    void queryLogs_findsThePaymentsTimeoutsAndRedactsTheShoppersAddresses() {
        JsonObject errors = tool("query_logs", "{\"service\":\"payments\",\"level\":\"error\",\"limit\":5}");
        assertThat(errors.getJsonArray("lines")).isNotEmpty();
        assertThat(errors.getJsonArray("lines").toString()).contains("timeout acquiring connection from pool payments-db");
        // fields Loki parsed out of the JSON lines are not repeated as stream labels: one stream per pod remains
        assertThat(errors.getJsonArray("streams").size()).isLessThanOrEqualTo(2);

        // the shop writes "warn"; an agent asking for "warning" lines gets them too
        JsonObject warnings = tool("query_logs", "{\"service\":\"payments-db\",\"level\":\"warning\",\"limit\":5}");
        assertThat(warnings.getJsonArray("lines")).isNotEmpty();
        assertThat(warnings.getJsonArray("lines").toString()).contains("warn");

        JsonObject topk = tool("query_logs", "{\"service\":\"payments\",\"aggregate\":\"topk\",\"by\":[\"msg\"],\"k\":3,\"level\":\"error\"}");
        assertThat(topk.getJsonArray("groups").getJsonObject(0).getJsonObject("labels").getString("msg"))
                .contains("timeout acquiring connection");

        JsonObject signIns = tool("query_logs", "{\"service\":\"frontend\",\"filter\":\"signed in\",\"limit\":20,\"duration\":\"1h\"}");
        assertThat(signIns.getJsonArray("lines")).isNotEmpty();
        assertThat(signIns.toString()).doesNotContain("@example.", "203.0.113.7");
        assertThat(signIns.getJsonObject("redaction").getJsonObject("byCategory").getInt("email")).isGreaterThan(0);
    }

    @Test
    void queryLogs_countsPerStream_andTheTotalIsTheLinesOfTheWindow() {
        // after | json every line's trace id is a label: counts are per stream (pod), not per line
        JsonObject errors = tool("query_logs", "{\"service\":\"payments\",\"aggregate\":\"count_over_time\",\"step\":\"5m\",\"level\":\"error\"}");
        assertThat(errors.getJsonArray("series")).isNotEmpty().hasSizeLessThanOrEqualTo(3).allSatisfy(s ->
                assertThat(s.asJsonObject().getJsonObject("labels")).containsKey("pod").doesNotContainKeys("trace_id", "ts", "msg"));
        assertThat(errors.getBoolean("truncated")).isFalse();

        JsonObject sum = tool("query_logs", "{\"service\":\"payments-db\",\"aggregate\":\"sum\",\"duration\":\"1m\",\"step\":\"20s\"}");
        Instant from = Instant.parse(sum.getString("from"));
        Instant to = Instant.parse(sum.getString("to"));
        JsonObject counted = sum.getJsonArray("series").getJsonObject(0);
        assertThat(counted.getInt("points")).isEqualTo(3);
        JsonObject lines = tool("query_logs", "{\"service\":\"payments-db\",\"duration\":\"90s\",\"limit\":500}");
        assertThat(lines.getBoolean("truncated")).isFalse();
        long inWindow = lines.getJsonArray("lines").stream().map(l -> Instant.parse(l.asJsonObject().getString("time")))
                .filter(t -> t.isAfter(from) && !t.isAfter(to)).count();
        assertThat(counted.getInt("total")).as("the lines in (from, to]").isEqualTo((int) inWindow);
    }

    @Test
    void aPageOfLogLinesLargerThanTheServersOutputBuffer_arrivesWholeWithItsLengthDeclared() {
        // the gateway writes answers through a 64 KB buffer (one socket write for a usual page of
        // lines); a page beyond it must still arrive whole, with its length declared, not chunked
        String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"query_logs\","
                + "\"arguments\":{\"service\":\"frontend\",\"duration\":\"1h\",\"limit\":500}}}";
        HttpResponse<String> response = client.post(call, Map.of());

        assertThat(response.statusCode()).isEqualTo(200);
        int bytes = response.body().getBytes(StandardCharsets.UTF_8).length;
        assertThat(bytes).isGreaterThan(2 * 64 * 1024);
        assertThat(response.headers().firstValue("Content-Length")).contains(Integer.toString(bytes));
        assertThat(response.headers().firstValue("Transfer-Encoding")).isEmpty();
        JsonObject result = McpHttpClient.parse(response.body()).getJsonObject("result");
        JsonObject structured = result.getJsonObject("structuredContent");
        tools.check("query_logs", structured);
        assertThat(structured.getJsonArray("lines")).hasSize(structured.getInt("returned")).hasSizeGreaterThan(100);
        // the text form is the same JSON, escaped: the whole page came through twice
        assertThat(McpHttpClient.parse(result.getJsonArray("content").getJsonObject(0).getString("text"))).isEqualTo(structured);
    }

    @Test
    void scoresJudgedByTheHealthTool_reachTheAnomalyHistoryAndThePostmortemTimeline() {
        tool("get_service_health", "{\"service\":\"payments-db\"}");
        JsonObject history = tool("get_anomaly_history", "{\"service\":\"payments-db\"}");
        assertThat(history.getJsonArray("rows")).isNotEmpty();
        assertThat(history.getJsonArray("rows").stream().map(r -> r.asJsonObject().getString("service")).distinct().toList())
                .containsExactly("payments-db");
        assertThat(history.getJsonArray("rows").stream().anyMatch(r -> r.asJsonObject().getBoolean("anomalous"))).isTrue();
        // spec 4.4: the history and the report carry when the deviation began, not only when it was judged
        assertThat(history.getJsonArray("rows").stream().map(JsonValue::asJsonObject).filter(r -> r.getBoolean("anomalous"))
                .allMatch(r -> r.containsKey("onset") && !Instant.parse(r.getString("onset")).isAfter(Instant.parse(r.getString("at")))))
                .as(history.toString()).isTrue();
        JsonObject report = tool("generate_postmortem", "{\"service\":\"payments-db\",\"format\":\"json\"}");
        assertThat(report.getJsonObject("timeline").getJsonArray("episodes")).as(report.toString()).isNotEmpty();
        assertThat(report.getJsonObject("timeline").getInt("totalEpisodes")).isPositive();
    }

    @Test
    void repeatedHealthChecksAndDetections_makeOneTimelineEpisodePerSignal_datedToWhenThePaymentsDatabaseSlowedDown() {
        for (int round = 0; round < 2; round++) {
            tool("get_service_health", "{\"service\":\"payments-db\"}");
            tool("detect_anomalies", "{\"service\":\"payments-db\"}");
        }
        JsonObject report = tool("generate_postmortem", "{\"service\":\"payments-db\",\"format\":\"json\"}");
        JsonObject timeline = report.getJsonObject("timeline");
        List<JsonObject> episodes = timeline.getJsonArray("episodes").getValuesAs(JsonObject.class);
        List<JsonObject> db = episodes.stream().filter(e -> e.getString("service").equals("payments-db")).toList();

        // four judgements of latency_p99 (two per tool, more if other tests of this class ran first), one episode
        assertThat(db).as(timeline.toString()).isNotEmpty();
        assertThat(db.stream().map(e -> e.getString("signal")).toList()).as(timeline.toString()).doesNotHaveDuplicates();
        JsonObject latency = db.stream().filter(e -> e.getString("signal").equals("latency_p99")).findFirst().orElseThrow();
        assertThat(latency.getInt("judgments")).isGreaterThanOrEqualTo(4);
        assertThat(latency.getBoolean("onsetKnown")).isTrue();
        // cpu (cores) and cpu_utilization (share of the limit) are different measures, both recorded, each labelled
        assertThat(db.stream().filter(e -> e.getString("signal").startsWith("cpu")).map(e -> e.getString("measure")).toList())
                .as(timeline.toString()).containsExactlyInAnyOrder("cores used", "share of CPU limit");

        // the demo's payments database slowed down 25 minutes before the demo started; the detector dates points of its
        // 30 s query grid and the slowdown ramps up over 4 minutes, so the onset lands within a minute or two of it
        Instant incident = demo.backends().system().incident().start();
        Instant earliest = Instant.parse(episodes.getFirst().getString("onset"));
        assertThat(earliest).as(timeline.toString()).isBetween(incident.minusSeconds(60), incident.plusSeconds(120));
        assertThat(episodes.getFirst().getString("service")).isEqualTo("payments-db");
        assertThat(episodes).extracting(e -> Instant.parse(e.getString("onset"))).isSorted();
        assertThat(report.getString("synopsis")).contains("The earliest onset is " + earliest)
                .contains("payments-db went wrong first");
    }
}
