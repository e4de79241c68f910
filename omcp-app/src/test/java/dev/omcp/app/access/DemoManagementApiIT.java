package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.app.demo.DemoGateway;
import dev.omcp.testkit.files.ScratchDirectory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The management routes that answer with a tool (spec 4.3: services, topology, health, sparklines,
 * playground, post-mortems) against the real tools over the demo shop, whose payments database
 * slowed down 25 minutes ago, in basic mode with an operator and an admin. ManagementApiIT and
 * PostmortemApiIT check the routes' rules with stand-in tools; this checks that the real tools'
 * arguments and answers fit the routes and that the answers make sense for the incident.
 */
class DemoManagementApiIT {
    private static DemoGateway demo;
    private static ScratchDirectory dir;
    private static Browser olivia;
    private static Browser alice;

    @BeforeAll
    static void start() {
        dir = ScratchDirectory.create("omcp-demo-management-it");
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir.path()));
        env.put("OMCP_POSTMORTEMS_FILE", dir.resolve("postmortems.jsonl").toString());
        demo = DemoGateway.start(env);
        olivia = login("olivia");
        alice = login("alice");
    }

    @AfterAll
    static void stop() {
        demo.close();
        dir.close();
    }

    private static Browser login(String user) {
        Browser browser = new Browser(demo.baseUrl());
        Browser.Reply reply = browser.login(user, TestGateway.PASSWORD);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        browser.get("/api/me");
        return browser;
    }

    private static JsonNode ok(Browser.Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(field == null ? n.asText() : n.path(field).asText()));
        return out;
    }

    @Test
    void services_listTheShopFromEverySource_withTheCatalogAndQueryParametersAsArguments() {
        JsonNode all = ok(olivia.get("/api/services"));

        assertThat(texts(all.path("services"), "name")).contains("frontend", "checkout", "payments", "payments-db", "inventory");
        assertThat(texts(all.path("sources"), null)).contains("prometheus", "loki", "kubernetes", "zipkin");
        assertThat(all.path("partial").asBoolean()).isFalse();
        JsonNode database = all.path("services").findParents("name").stream()
                .filter(s -> s.path("name").asText().equals("payments-db")).findFirst().orElseThrow();
        assertThat(database.path("catalog").path("owner").asText()).isEqualTo("team-platform");

        JsonNode filtered = ok(olivia.get("/api/services?filter=payments&limit=5"));
        assertThat(texts(filtered.path("services"), "name")).isNotEmpty().allSatisfy(name -> assertThat(name).contains("payments"));

        Browser.Reply wrongType = olivia.get("/api/services?limit=many");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
    }

    @Test
    void topology_showsTheTracedCallsIntoThePaymentsDatabase_mergedWithTheCluster() {
        JsonNode topology = ok(olivia.get("/api/topology?focus=payments-db&depth=2"));

        assertThat(texts(topology.path("sources"), null)).contains("kubernetes", "zipkin");
        List<String> edges = new ArrayList<>();
        topology.path("edges").forEach(e -> edges.add(e.path("from").asText() + " " + e.path("relation").asText() + " "
                + e.path("to").asText()));
        assertThat(edges).contains("service/shop/payments CALLS service/shop/payments-db",
                "service/shop/checkout CALLS service/shop/payments");
        assertThat(texts(topology.path("focus").path("resolved"), null)).contains("service/shop/payments-db");
    }

    @Test
    void healthOfThePaymentsDatabase_isUnwell_andTheScoresItRecordedReachTheSparklines() {
        JsonNode health = ok(olivia.get("/api/health/payments-db"));

        assertThat(health.path("service").asText()).isEqualTo("payments-db");
        assertThat(health.path("status").asText()).isIn("degraded", "critical");
        assertThat(texts(health.path("anomalies"), "signal")).contains("latency_p99");
        assertThat(health.path("note").asText()).startsWith("payments-db is ").doesNotContain(".;");
        assertThat(health.path("history").path("recorded").asInt()).isPositive();
        assertThat(ok(olivia.get("/api/health/catalog-cache")).path("status").asText()).isEqualTo("healthy");
        // query parameters are the tool's other arguments, typed by its schema
        assertThat(ok(olivia.get("/api/health/payments-db?window=30m")).path("window").asText()).isEqualTo("30m");
        Browser.Reply badWindow = olivia.get("/api/health/payments-db?window=forever");
        assertThat(badWindow.status()).isEqualTo(400);
        assertThat(badWindow.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");

        JsonNode sparklines = ok(olivia.get("/api/health/anomaly-sparklines"));
        JsonNode database = sparklines.path("services").findParents("service").stream()
                .filter(s -> s.path("service").asText().equals("payments-db")).findFirst().orElseThrow();
        List<Boolean> anomalous = new ArrayList<>();
        database.path("anomalous").forEach(a -> anomalous.add(a.asBoolean()));
        assertThat(anomalous).contains(true);
        assertThat(database.path("scores").size()).isEqualTo(anomalous.size());
        assertThat(sparklines.path("durableSink").asBoolean()).isFalse();
    }

    @Test
    void playground_runsTheRealToolAsTheCaller_andShowsItsErrorsAsResults() {
        JsonNode answer = ok(olivia.post("/api/playground/invoke",
                "{\"tool\": \"get_service_health\", \"arguments\": {\"service\": \"payments\"}}"));

        assertThat(answer.path("tool").asText()).isEqualTo("get_service_health");
        assertThat(answer.path("isError").asBoolean()).isFalse();
        assertThat(answer.path("structuredContent").path("status").asText()).isEqualTo("critical");
        assertThat(texts(answer.path("structuredContent").path("drivers"), null)).anySatisfy(d -> assertThat(d).contains("error_rate"));
        assertThat(answer.path("content").get(0).path("text").asText()).contains("\"service\":\"payments\"");

        JsonNode traces = ok(olivia.post("/api/playground/invoke",
                "{\"tool\": \"query_traces\", \"arguments\": {\"service\": \"payments\", \"errorsOnly\": true, \"limit\": 3}}"));
        assertThat(traces.path("structuredContent").path("traces").size()).isBetween(1, 3);
        traces.path("structuredContent").path("traces").forEach(t -> assertThat(t.path("hasError").asBoolean()).isTrue());

        JsonNode refused = ok(olivia.post("/api/playground/invoke",
                "{\"tool\": \"query_metrics\", \"arguments\": {\"service\": \"payments\", \"metric\": \"cpu\", \"labels\": {\"bad name\": \"x\"}}}"));
        assertThat(refused.path("isError").asBoolean()).as(refused.toString()).isTrue();
        assertThat(refused.path("content").get(0).path("text").asText()).contains("arguments.labels.bad name (the name)");

        assertThat(olivia.post("/api/playground/invoke", "{\"tool\": \"no_such_tool\"}").status()).isEqualTo(404);
    }

    @Test
    void postmortems_aboutThePaymentsDatabase_areGeneratedStoredListedRead_andDeletedOnlyByAnAdmin() {
        // a health check first records scores, so the report has a timeline
        ok(olivia.get("/api/health/payments-db"));

        Browser.Reply created = olivia.post("/api/postmortems", "{\"service\": \"payments-db\", \"duration\": \"30m\"}");

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode entry = created.json();
        String id = entry.path("id").asText();
        assertThat(entry.path("service").asText()).isEqualTo("payments-db");
        assertThat(entry.path("duration").asText()).isEqualTo("30m");
        assertThat(entry.path("createdBy").asText()).isEqualTo("olivia");
        JsonNode report = entry.path("report");
        assertThat(report.path("service").asText()).isEqualTo("payments-db");
        assertThat(report.path("window").asText()).isEqualTo("30m");
        // spec 4.4: the sections in order, built from the real walk, history, traces and logs
        assertThat(texts(report.path("sections"), null)).containsExactly("synopsis", "timeline", "blastRadius", "signals", "traces",
                "logHighlights", "followUps");
        assertThat(report.path("synopsis").asText()).contains("Post-mortem draft for payments-db", "latency_p99");
        assertThat(report.path("timeline").path("episodes").size()).isPositive();
        assertThat(report.path("blastRadius").path("included").asBoolean()).isTrue();
        List<String> blastNodes = texts(report.path("blastRadius").path("nodes"), "id");
        assertThat(blastNodes).contains("service/shop/payments", "service/shop/checkout", "service/shop/frontend");
        assertThat(report.path("traces").path("included").asBoolean()).isTrue();
        assertThat(report.path("traces").path("errorCount").asInt()).isPositive();
        assertThat(report.path("logHighlights").toString()).contains("slow query");

        JsonNode listed = ok(olivia.get("/api/postmortems"));
        assertThat(texts(listed.path("postmortems"), "id")).contains(id);
        assertThat(ok(olivia.get("/api/postmortems/" + id))).isEqualTo(entry);

        // spec 4.3: DELETE is admin-gated
        Browser.Reply notAdmin = olivia.send("DELETE", "/api/postmortems/" + id, null);
        assertThat(notAdmin.status()).isEqualTo(403);
        assertThat(notAdmin.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(alice.send("DELETE", "/api/postmortems/" + id, null).status()).isEqualTo(204);
        assertThat(olivia.get("/api/postmortems/" + id).status()).isEqualTo(404);
        assertThat(texts(ok(olivia.get("/api/postmortems")).path("postmortems"), "id")).doesNotContain(id);
    }

    @Test
    void aPostmortemForAServiceNoSourceKnows_isStoredWithTheNoSignalNotice() {
        Browser.Reply created = olivia.post("/api/postmortems", "{\"service\": \"billing\"}");

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode report = created.json().path("report");
        assertThat(created.json().path("duration").asText()).isEqualTo("1h");
        assertThat(report.path("notice").asText()).isNotEmpty();
        assertThat(report.path("timeline").path("episodes").size()).isZero();
    }
}
