package dev.omcp.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.CheckedToolCalls;
import dev.omcp.app.support.McpHttpClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The topology, blast-radius, trace, IP, anomaly-history and post-mortem tools end to end: an MCP
 * client through {@code /mcp} against the demo shop, whose payments database slowed down 25 minutes
 * ago behind the real Kubernetes, Loki and Zipkin APIs (Zipkin through the signed reference plugin).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IncidentToolsIT {
    private static final List<String> TOOLS = List.of("get_topology", "get_blast_radius", "query_traces", "enrich_ips",
            "get_anomaly_history", "generate_postmortem");
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

    /** A call whose structured answer must match the published output schema and declare every member it carries. */
    private static JsonObject result(String name, String arguments) {
        return tools.toolResult(name, arguments);
    }

    private static JsonObject tool(String name, String arguments) {
        return result(name, arguments).getJsonObject("structuredContent");
    }

    private static List<String> strings(JsonObject o, String key) {
        return o.getJsonArray(key).getValuesAs(JsonString::getString);
    }

    @Test
    void toolsList_offersTheSixToolsReadOnlyWithOutputSchemas() {
        Map<String, JsonObject> listed = client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                .map(JsonValue::asJsonObject).collect(Collectors.toMap(t -> t.getString("name"), t -> t));
        for (String name : TOOLS) {
            JsonObject tool = listed.get(name);
            assertThat(tool).as(name).isNotNull();
            assertThat(tool.getJsonObject("annotations").getBoolean("readOnlyHint")).as(name).isTrue();
            assertThat(tool.getJsonObject("outputSchema").getString("type")).as(name).isEqualTo("object");
            assertThat(tool.getString("description")).as(name).hasSizeGreaterThan(200);
        }
        // spec 4.4: the inputs of query_traces and generate_postmortem
        assertThat(listed.get("query_traces").getJsonObject("inputSchema").getJsonObject("properties").keySet())
                .containsExactlyInAnyOrder("service", "duration", "filter", "limit", "errorsOnly");
        assertThat(listed.get("generate_postmortem").getJsonObject("inputSchema").getJsonObject("properties").keySet())
                .containsExactlyInAnyOrder("service", "duration", "format");
    }

    @Test
    void getTopology_mergesTheTracedServiceCallsWithTheClusterByCanonicalId() {
        JsonObject topology = tool("get_topology", "{\"focus\":\"payments-db\",\"depth\":2}");
        assertThat(strings(topology, "sources")).containsExactly("kubernetes", "zipkin");
        JsonObject db = topology.getJsonArray("nodes").stream().map(JsonValue::asJsonObject)
                .filter(n -> n.getString("id").equals("service/shop/payments-db")).findFirst().orElseThrow();
        assertThat(strings(db, "sources")).containsExactly("kubernetes", "zipkin");
        assertThat(topology.getJsonArray("edges").stream().map(JsonValue::asJsonObject).map(e -> e.getString("from") + " "
                + e.getString("relation") + " " + e.getString("to")))
                .contains("service/shop/payments CALLS service/shop/payments-db", "service/shop/checkout CALLS service/shop/payments",
                        "pod/shop/payments-db-0 RUNS_ON node/worker-1");
        assertThat(topology.getBoolean("partial")).isFalse();
    }

    @Test
    void getBlastRadius_ofThePaymentsDatabase_reachesPaymentsCheckoutAndTheFrontend() {
        JsonObject blast = tool("get_blast_radius", "{\"service\":\"payments-db\"}");
        assertThat(strings(blast, "targets")).containsExactly("service/shop/payments-db", "statefulset/shop/payments-db");
        assertThat(strings(blast, "affectedServices")).containsExactly("payments", "checkout", "frontend");
        assertThat(blast.getJsonObject("byHost").keySet()).singleElement().asString().startsWith("node/worker-");
        assertThat(blast.getJsonObject("byOwner").keySet()).contains("statefulset/shop/payments-db");
        assertThat(blast.getBoolean("truncated")).isFalse();
        assertThat(blast.getBoolean("partial")).isFalse();
        // the database's pod restarted while it was slow: the radius says so, and what it means, where the agent looks
        JsonObject dbPod = blast.getJsonArray("nodes").stream().map(JsonValue::asJsonObject)
                .filter(n -> n.getString("id").equals("pod/shop/payments-db-0")).findFirst().orElseThrow();
        assertThat(dbPod.getJsonObject("attention").toString()).isEqualTo("{\"lastTerminationReason\":\"Error\",\"restarts\":\"2\"}");
        assertThat(blast.getString("note")).contains("pod/shop/payments-db-0 (lastTerminationReason Error, restarts 2)");
        // DECISIONS.md: the same JSON as text for clients that ignore structured content
        JsonObject asText = McpHttpClient.parse(result("get_blast_radius", "{\"service\":\"payments-db\"}")
                .getJsonArray("content").getJsonObject(0).getString("text"));
        assertThat(asText).isEqualTo(blast);
    }

    @Test
    void queryTraces_findsTheSlowFailingCheckoutsThroughTheZipkinPlugin() {
        JsonObject failing = tool("query_traces", "{\"service\":\"payments\",\"errorsOnly\":true,\"limit\":10}");
        assertThat(strings(failing, "sources")).containsExactly("zipkin");
        assertThat(failing.getJsonObject("summary").getInt("total")).isPositive();
        assertThat(failing.getJsonObject("summary").getInt("errorCount")).isEqualTo(failing.getJsonObject("summary").getInt("total"));
        assertThat(failing.getJsonArray("traces")).allSatisfy(t -> {
            assertThat(t.asJsonObject().getBoolean("hasError")).isTrue();
            assertThat(t.asJsonObject().getString("rootName")).isEqualTo("get /api/checkout");
            assertThat(t.asJsonObject().getString("rootService")).isEqualTo("frontend");
        });
        JsonObject all = tool("query_traces", "{\"service\":\"payments\"}");
        // spec 4.4 defaults echoed; errors first, then slowest
        assertThat(all.getString("duration")).isEqualTo("15m");
        assertThat(all.getJsonArray("traces").size()).isLessThanOrEqualTo(50);
        assertThat(all.getJsonArray("traces").getJsonObject(0).getBoolean("hasError")).isTrue();
        // a checkout takes about 70 ms on a normal day; with payments-db 25 times slower it takes several times that
        assertThat(all.getJsonObject("summary").getJsonNumber("p50DurationMs").doubleValue()).isGreaterThan(150);
        assertThat(all.containsKey("errors")).isFalse();
    }

    @Test
    void aFailingTracesId_asTheFilterOfQueryLogs_findsWhatEachServiceOnItsPathLoggedAboutThatRequest() {
        // the step an agent takes after query_traces: the trace id searched in the logs of the services it passed through
        JsonObject failing = tool("query_traces", "{\"service\":\"payments\",\"errorsOnly\":true,\"limit\":1}");
        String traceId = failing.getJsonArray("traces").getJsonObject(0).getString("traceId");
        List<String> levels = new java.util.ArrayList<>();
        for (String service : List.of("frontend", "checkout", "payments", "payments-db", "inventory")) {
            JsonObject logs = tool("query_logs", "{\"service\":\"" + service + "\",\"filter\":\"" + traceId
                    + "\",\"duration\":\"20m\"}");
            assertThat(logs.getJsonArray("lines")).as(service + ": " + logs).hasSize(1);
            JsonObject line = McpHttpClient.parse(logs.getJsonArray("lines").getJsonObject(0).getString("line"));
            assertThat(line.getString("trace_id")).isEqualTo(traceId);
            assertThat(line.getString("service")).isEqualTo(service);
            levels.add(line.getString("level"));
        }
        assertThat(levels).as("the failing trace's errors are in the logs too").contains("error");
        JsonObject elsewhere = tool("query_logs", "{\"service\":\"catalog\",\"filter\":\"" + traceId + "\",\"duration\":\"20m\"}");
        assertThat(elsewhere.getJsonArray("lines")).as("a checkout never reaches the catalog").isEmpty();
    }

    @Test
    void queryTraces_ranksTheWholeWindow_notTheNewestFew_andSaysHowManyMatched() {
        // QA: limit 5 showed one failing trace while 27 had failed in the window, and no note said the list was cut
        JsonObject failing = tool("query_traces", "{\"service\":\"payments\",\"errorsOnly\":true,\"limit\":1000}");
        double slowestFailure = failing.getJsonArray("traces").getJsonObject(0).getJsonNumber("durationMs").doubleValue();
        assertThat(failing.getJsonObject("summary").getInt("total")).isGreaterThan(5);

        JsonObject five = tool("query_traces", "{\"service\":\"payments\",\"limit\":5}");
        assertThat(five.getJsonObject("summary").getInt("errorCount")).isEqualTo(5);
        assertThat(five.getString("note")).matches("\\d+ traces matched; the list and its summary cover only the 5 most relevant "
                + "\\(errors first, then slowest\\): raise limit \\(at most 1000\\) to see more\\.");
        JsonObject one = tool("query_traces", "{\"service\":\"payments\",\"limit\":1}");
        assertThat(one.getJsonArray("traces").getJsonObject(0).getJsonNumber("durationMs").doubleValue()).isEqualTo(slowestFailure);

        // three hours of a service with about ten traces a minute hold more than a source is asked for
        JsonObject busy = tool("query_traces", "{\"service\":\"payments\",\"duration\":\"3h\",\"limit\":1000}");
        assertThat(busy.getJsonObject("summary").getInt("total")).isEqualTo(1000);
        assertThat(busy.getString("note")).isEqualTo("zipkin returned 1000 traces, as many as a source is asked for, so the window "
                + "may hold more that were not ranked and the list may be incomplete: shorten duration or add a filter.");
    }

    @Test
    void queryTraces_resolvesTheNamespacedName_andSaysWhenNoTracesSourceKnowsAName() {
        // QA: shop/payments, which query_logs, get_topology and get_blast_radius resolve, gave "no traces of shop/payments"
        JsonObject namespaced = tool("query_traces", "{\"service\":\"shop/payments\",\"limit\":5}");
        assertThat(namespaced.getString("service")).isEqualTo("shop/payments");
        assertThat(namespaced.getJsonArray("traces")).hasSize(5);
        assertThat(namespaced.getJsonObject("summary").getInt("errorCount")).isEqualTo(5);
        assertThat(namespaced.getString("note")).startsWith("Asked the traces sources for payments, the name of service/shop/payments "
                + "in the topology. ");

        JsonObject typo = tool("query_traces", "{\"service\":\"paymnets\"}");
        assertThat(typo.getJsonArray("traces")).isEmpty();
        assertThat(typo.getString("note")).isEqualTo("None of the traces sources that answered (zipkin) knows a service named paymnets; "
                + "they list catalog, catalog-cache, checkout, frontend, inventory, payments, payments-db. list_services shows the "
                + "names every source knows. Did you mean 'payments'?");
        JsonObject otherNamespace = tool("query_traces", "{\"service\":\"billing/payments\"}");
        assertThat(otherNamespace.getString("note")).contains("A namespace/name is resolved through the topology, but the topology has "
                + "no service billing/payments.");
    }

    @Test
    void enrichIps_namesTheNetworksOfTheShoppersAddresses_fromTheDemoDataset() {
        // the demo ships OMCP_IP_ENRICH_FILE with the networks its simulated logs' client addresses come from
        JsonObject ips = tool("enrich_ips", "{\"addresses\":[\"203.0.113.7\",\"10.42.0.12\",\"2001:db8::17\",\"not-an-ip\"]}");
        List<JsonObject> results = ips.getJsonArray("results").stream().map(JsonValue::asJsonObject).toList();
        assertThat(results).extracting(r -> r.getString("status"))
                .containsExactly("found", "not_found", "found", "invalid");
        assertThat(results.get(0).getString("network")).isEqualTo("203.0.113.0/24");
        assertThat(results.get(0).getJsonObject("attributes").getString("org")).isEqualTo("Example Transit, B.V.");
        assertThat(results.get(1).getString("scope")).isEqualTo("private");
        assertThat(results.get(2).getJsonObject("attributes").getString("country")).isEqualTo("FR");
        assertThat(ips.getJsonObject("summary").getInt("invalid")).isEqualTo(1);
    }

    @Test
    @Order(1) // before generate_postmortem, which judges the services itself when nothing did and records the scores
    void getAnomalyHistory_beforeAnythingJudgedAService_saysWhichToolsRecordScores() {
        JsonObject history = tool("get_anomaly_history", "{\"service\":\"payments-db\"}");
        assertThat(history.getJsonArray("rows")).isEmpty();
        assertThat(history.getBoolean("remoteSinkConfigured")).isFalse();
        assertThat(history.getString("note")).contains("get_service_health").contains("detect_anomalies")
                .contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE");
    }

    @Test
    void generatePostmortem_ofThePaymentsDatabase_namesTheIncident() {
        JsonObject answer = result("generate_postmortem", "{\"service\":\"payments-db\"}");
        String md = answer.getJsonArray("content").getJsonObject(0).getString("text");
        assertThat(md).startsWith("# Post-mortem draft: payments-db\n");
        assertThat(md.lines().filter(l -> l.startsWith("## ")).toList()).containsExactly("## Synopsis", "## Anomaly timeline",
                "## Blast radius at peak", "## Contributing signals", "## Related traces", "## Log highlights", "## Suggested follow-ups");
        // the blast radius walked over the merged topology, the slow queries from Loki, the failing checkouts from Zipkin
        assertThat(md).contains("| service/shop/payments | service | 1 | calls service/shop/payments-db |")
                .contains("| service/shop/frontend | service | 3 | calls service/shop/checkout |")
                .contains("warn: slow query: UPDATE payments SET status=$1 WHERE id=$2 took")
                .contains("error traces:** `")
                .contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE");
        JsonObject report = answer.getJsonObject("structuredContent");
        // nothing had judged payments-db yet: the report ran the detection itself, over Prometheus
        assertThat(report.getJsonObject("detection").getString("state")).isEqualTo("completed");
        assertThat(report.getJsonObject("detection").getInt("anomalousServices")).isPositive();
        assertThat(report.getJsonObject("timeline").getJsonArray("episodes")).isNotEmpty();
        assertThat(md).contains("> No anomaly detection had recorded scores for this service in the window");
        assertThat(strings(report, "sources")).containsExactlyInAnyOrder("kubernetes", "zipkin", "loki", "prometheus");
        assertThat(report.getBoolean("partial")).isFalse();
        JsonObject json = tool("generate_postmortem", "{\"service\":\"payments-db\",\"format\":\"json\"}");
        assertThat(json.containsKey("detection")).as("the first report's scores are in the history now").isFalse();
        assertThat(json.getJsonObject("blastRadius").getInt("totalNodes")).isEqualTo(report.getJsonObject("blastRadius").getInt("totalNodes"));
        assertThat(json.getJsonArray("logHighlights").getJsonObject(0).getString("line")).startsWith("warn: slow query: UPDATE payments");
        assertThat(md).doesNotContain("127.0.0.1");
    }
}
