package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.core.hooks.HookMode;
import dev.omcp.core.hooks.HookRegistration;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5 item 1: services, topology, health, settings and thresholds, and the playground, through
 * a real gateway in basic mode (spec 4.2, 4.3, 5.1, 5.5, 7.1, 7.4).
 */
class ManagementApiIT {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private TestGateway start(Map<String, String> extra) throws IOException {
        Path sources = dir.resolve("sources.yaml");
        Files.writeString(sources, """
                sources:
                  - name: shared-prometheus
                    type: prometheus
                    url: http://127.0.0.1:1
                  - name: globex-loki
                    type: loki
                    url: http://127.0.0.1:1
                    tenant: globex
                """);
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", sources.toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        env.putAll(extra);
        gateway = TestGateway.start(env, clock);
        var tools = gateway.assembly().gateway().tools();
        tools.register(StandInTools.topology());
        tools.register(StandInTools.serviceHealth());
        return gateway;
    }

    private TestGateway start() throws IOException {
        return start(Map.of());
    }

    private static Browser.Reply put(Browser browser, String path, String json) {
        return browser.send("PUT", path, json);
    }

    private List<AuditEvent> audited(String resource) {
        return gateway.audit.events().stream().filter(e -> e.resource().equals(resource)).toList();
    }

    @Test
    void publicHealth_withoutASessionIsOnlyTheStatus_withOneItShowsTheCallersSources() throws IOException {
        start();
        Browser anonymous = gateway.browser();
        Browser.Reply bare = anonymous.get("/api/health");
        // DECISIONS.md: /api/health is public but without a valid session returns only {status}
        assertThat(bare.status()).isEqualTo(200);
        assertThat(bare.body()).isEqualTo("{\"status\":\"ok\"}");

        JsonNode acme = ManagementUsers.login(gateway, "victor").get("/api/health").json();
        assertThat(acme.path("status").asText()).isEqualTo("ok");
        assertThat(acme.path("sources").findValuesAsText("name")).containsExactly("shared-prometheus");
        assertThat(acme.path("counts").path("total").asInt()).isEqualTo(1);
        assertThat(acme.toString()).doesNotContain("127.0.0.1");

        JsonNode everyone = ManagementUsers.login(gateway, "alice").get("/api/health").json();
        assertThat(everyone.path("sources").findValuesAsText("name")).containsExactly("globex-loki", "shared-prometheus");
        assertThat(everyone.path("anomalyHistory").path("retentionSeconds").asInt()).isEqualTo(3600);
    }

    @Test
    void everyNewRoute_needsASessionInBasicMode() throws IOException {
        start();
        Browser anonymous = gateway.browser();
        anonymous.get("/api/info");
        for (String[] route : new String[][] {
                {"GET", "/api/services"}, {"GET", "/api/topology"}, {"GET", "/api/health/checkout"},
                {"GET", "/api/health/anomaly-sparklines"}, {"GET", "/api/health/thresholds"}, {"PUT", "/api/health/thresholds"},
                {"GET", "/api/settings"}, {"PUT", "/api/settings"}, {"POST", "/api/playground/invoke"},
                {"GET", "/api/postmortems"}, {"POST", "/api/postmortems"}, {"GET", "/api/postmortems/pm-1"},
                {"DELETE", "/api/postmortems/pm-1"}}) {
            Browser.Reply reply = anonymous.send(route[0], route[1], route[0].equals("GET") || route[0].equals("DELETE") ? null : "{}");
            // spec 7.4: basic mode, /api/* without a valid session is 401
            assertThat(reply.status()).as(route[0] + " " + route[1]).isEqualTo(401);
            assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_AUTH_REQUIRED");
        }
    }

    @Test
    void servicesAndTopology_answerWithTheirToolsResult_runAsTheCaller_withTypedParameters() throws IOException {
        start();
        Browser victor = ManagementUsers.login(gateway, "victor");

        Browser.Reply services = victor.get("/api/services?limit=5");
        assertThat(services.status()).isEqualTo(200);
        assertThat(services.json().has("services")).isTrue();
        assertThat(services.json().path("sources").toString()).doesNotContain("globex-loki");

        Browser.Reply topology = victor.get("/api/topology?namespace=shop&limit=5");
        assertThat(topology.status()).isEqualTo(200);
        assertThat(topology.json().path("caller").asText()).isEqualTo("victor");
        assertThat(topology.json().path("tenant").asText()).isEqualTo("acme");
        assertThat(topology.json().path("arguments").toString()).isEqualTo("{\"namespace\":\"shop\",\"limit\":5}");
    }

    @Test
    void toolParametersThatDoNotFit_are400ListingEveryViolation() throws IOException {
        start();
        Browser victor = ManagementUsers.login(gateway, "victor");

        Browser.Reply topology = victor.get("/api/topology?limit=many&limit=2");
        assertThat(topology.status()).isEqualTo(400);
        assertThat(topology.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
        assertThat(topology.json().path("errors").toString()).contains("arguments.limit: given 2 times");

        Browser.Reply several = victor.get("/api/topology?limit=900&colour=red");
        assertThat(several.status()).isEqualTo(400);
        assertThat(several.json().path("errors")).hasSize(2);

        assertThat(victor.get("/api/services?limit=5000").json().path("errors").toString()).contains("limit");
    }

    @Test
    void withoutTheTool_aToolBackedRouteSaysItIsUnavailable() throws IOException {
        start();
        gateway.assembly().gateway().tools().unregister("get_topology");
        Browser.Reply reply = ManagementUsers.login(gateway, "victor").get("/api/topology");
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_TOOL_UNAVAILABLE");
        assertThat(reply.json().path("tool").asText()).isEqualTo("get_topology");
    }

    @Test
    void serviceHealth_takesNamesWithSlashes_passesTheWindow_andReportsToolErrors() throws IOException {
        start();
        Browser victor = ManagementUsers.login(gateway, "victor");

        JsonNode health = victor.get("/api/health/payments/db?window=30m").json();
        assertThat(health.path("service").asText()).isEqualTo("payments/db");
        assertThat(health.path("window").asText()).isEqualTo("30m");
        assertThat(health.path("tenant").asText()).isEqualTo("acme");

        Browser.Reply badName = victor.get("/api/health/pay%20ments");
        assertThat(badName.status()).isEqualTo(400);
        assertThat(badName.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
        assertThat(victor.get("/api/health/checkout?window=forever").status()).isEqualTo(400);

        Browser.Reply failing = victor.get("/api/health/unreachable");
        assertThat(failing.status()).isEqualTo(502);
        assertThat(failing.json().path("code").asText()).isEqualTo("OMCP_TOOL_ERROR");
        assertThat(failing.json().path("error").asText()).contains("no metrics source answered");

        // the fixed paths are not taken for service names
        assertThat(victor.get("/api/health/thresholds").json().has("thresholds")).isTrue();
        assertThat(victor.get("/api/health/anomaly-sparklines").json().has("services")).isTrue();
    }

    @Test
    void sparklines_showTheCallersTenantOnly_inTheBucketsAskedFor() throws IOException {
        start();
        var history = gateway.assembly().toolkit().history();
        history.record(new AnomalyScoreSample("acme", "checkout", "latency_p99", clock.instant().minusSeconds(120), 6.5, true,
                Optional.of("spike"), Optional.empty()));
        history.record(new AnomalyScoreSample("globex", "billing", "cpu", clock.instant().minusSeconds(60), 9, true, Optional.empty(), Optional.empty()));
        Browser victor = ManagementUsers.login(gateway, "victor");

        JsonNode sparklines = victor.get("/api/health/anomaly-sparklines?bucket=5m").json();
        assertThat(sparklines.path("bucketSeconds").asInt()).isEqualTo(300);
        assertThat(sparklines.path("retentionSeconds").asInt()).isEqualTo(3600);
        assertThat(sparklines.path("services").findValuesAsText("service")).containsExactly("checkout");
        assertThat(sparklines.path("services").get(0).path("scores")).as("the hour's 12 buckets and the one holding now").hasSize(13);
        assertThat(sparklines.path("services").get(0).path("scores").toString()).contains("6.5").contains("null");

        for (String bucket : List.of("1s", "2h", "5", "abc")) {
            Browser.Reply refused = victor.get("/api/health/anomaly-sparklines?bucket=" + bucket);
            assertThat(refused.status()).as(bucket).isEqualTo(400);
            assertThat(refused.json().path("error").asText()).contains("10s to 15m");
        }
        // a misspelt parameter is refused, not ignored in favour of the default bucket
        Browser.Reply misspelt = victor.get("/api/health/anomaly-sparklines?buckets=5m");
        assertThat(misspelt.status()).isEqualTo(400);
        assertThat(misspelt.json().path("error").asText()).contains("'buckets' is not a query parameter").contains("bucket");
    }

    @Test
    void thresholds_areReadChangedAndValidated_withEveryViolationListed_andAudited() throws IOException {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        JsonNode before = olivia.get("/api/health/thresholds").json();
        assertThat(before.path("thresholds").path("error_rate").path("degraded").asDouble()).isEqualTo(0.01);
        // a sources file is in use, so changes are written to its health block (HealthThresholdsFileIT)
        assertThat(before.path("persisted").asBoolean()).isTrue();

        Browser.Reply changed = put(olivia, "/api/health/thresholds", "{\"error_rate\": {\"degraded\": 0.02, \"critical\": 0.2}}");
        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().path("changed").toString()).isEqualTo("[\"healthThresholds\"]");
        assertThat(olivia.get("/api/health/thresholds").json().path("thresholds").path("error_rate").path("critical").asDouble())
                .isEqualTo(0.2);
        assertThat(gateway.assembly().toolkit().thresholds().toJson().getJsonObject("error_rate").getJsonNumber("degraded").doubleValue())
                .isEqualTo(0.02);

        // the body GET answers can be sent back unchanged, its thresholds or the whole answer
        assertThat(put(olivia, "/api/health/thresholds", olivia.get("/api/health/thresholds").json().path("thresholds").toString())
                .status()).isEqualTo(200);
        Browser.Reply whole = put(olivia, "/api/health/thresholds", olivia.get("/api/health/thresholds").body());
        assertThat(whole.status()).as(whole.body()).isEqualTo(200);
        assertThat(whole.json().path("thresholds").path("error_rate").path("critical").asDouble()).isEqualTo(0.2);
        // a disabled signal still comes back with every read-only field, and goes back as it came
        assertThat(put(olivia, "/api/health/thresholds", "{\"memory\": {\"enabled\": false}, \"error_rate\": {\"degraded\": 0.02, "
                + "\"critical\": 0.2}}").status()).isEqualTo(200);
        JsonNode disabled = olivia.get("/api/health/thresholds").json();
        assertThat(disabled.path("thresholds").path("memory").toString())
                .isEqualTo("{\"enabled\":false,\"unit\":\"ratio\",\"metric\":\"memory_utilization\"}");
        assertThat(disabled.path("thresholds").path("latency_p99").path("degraded").toString()).isEqualTo("500");
        assertThat(put(olivia, "/api/health/thresholds", disabled.toString()).status()).isEqualTo(200);
        assertThat(put(olivia, "/api/health/thresholds", olivia.get("/api/health/thresholds").json().path("thresholds").toString())
                .status()).isEqualTo(200);

        Browser.Reply invalid = put(olivia, "/api/health/thresholds",
                "{\"cpu\": {\"degraded\": 0.9, \"critical\": 0.5}, \"latency_p99\": {\"weight\": -1}, \"temperature\": {}}");
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.json().path("code").asText()).isEqualTo("OMCP_INVALID_THRESHOLDS");
        assertThat(invalid.json().path("errors")).hasSize(3);
        assertThat(invalid.json().path("errors").toString()).contains("thresholds.cpu.critical", "thresholds.latency_p99.weight",
                "thresholds.temperature");
        assertThat(olivia.get("/api/health/thresholds").json().path("thresholds").path("error_rate").path("critical").asDouble())
                .isEqualTo(0.2);

        Browser victor = ManagementUsers.login(gateway, "victor");
        Browser.Reply refused = put(victor, "/api/health/thresholds", "{}");
        // spec 7.1
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(refused.json().path("required").toString()).isEqualTo("{\"resource\":\"health\",\"action\":\"write\"}");
        assertThat(refused.json().path("have").toString()).contains("health:read").doesNotContain("health:write");

        assertThat(audited("health")).extracting(AuditEvent::actor, AuditEvent::action, AuditEvent::status).containsExactly(
                org.assertj.core.groups.Tuple.tuple("olivia", "write", 200),
                org.assertj.core.groups.Tuple.tuple("olivia", "write", 200),
                org.assertj.core.groups.Tuple.tuple("olivia", "write", 200),
                org.assertj.core.groups.Tuple.tuple("olivia", "write", 200),
                org.assertj.core.groups.Tuple.tuple("olivia", "write", 200),
                org.assertj.core.groups.Tuple.tuple("olivia", "write", 200),
                org.assertj.core.groups.Tuple.tuple("olivia", "write", 400),
                org.assertj.core.groups.Tuple.tuple("victor", "write", 403));
    }

    @Test
    void aTenantsAdmin_readsTheGatewayWideThresholdsAndSettings_butChangesNeither_andTheRefusalIsAudited() throws IOException {
        start();
        Browser ada = ManagementUsers.login(gateway, "ada");
        String before = ada.get("/api/health/thresholds").body();

        Browser.Reply thresholds = put(ada, "/api/health/thresholds", "{\"error_rate\": {\"degraded\": 0.5, \"critical\": 0.9}}");
        Browser.Reply settings = put(ada, "/api/settings", "{\"healthThresholds\": {\"cpu\": {\"enabled\": false}}}");

        for (Browser.Reply refused : List.of(thresholds, settings)) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(403);
            assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_SETTINGS_GATEWAY_WIDE");
            assertThat(refused.json().path("error").asText()).contains("tenant 'acme'", "nothing changed", "operator without a tenant");
        }
        Browser alice = ManagementUsers.login(gateway, "alice");
        assertThat(alice.get("/api/health/thresholds").body()).isEqualTo(before);
        assertThat(audited("health")).extracting(AuditEvent::actor, AuditEvent::status).containsExactly(
                org.assertj.core.groups.Tuple.tuple("ada", 403));
        assertThat(put(alice, "/api/health/thresholds", "{\"error_rate\": {\"degraded\": 0.02}}").status()).isEqualTo(200);
    }

    @Test
    void twoOperatorsWhoReadTheSameThresholds_cannotOverwriteEachOthersChangeUnseen_whenTheySendIfMatch() throws IOException {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        Browser alice = ManagementUsers.login(gateway, "alice");
        String read = olivia.get("/api/health/thresholds").header("ETag");
        assertThat(read).matches("\"[0-9a-f]{32}\"");
        assertThat(alice.get("/api/health/thresholds").header("ETag")).isEqualTo(read);

        olivia.headers.put("If-Match", read);
        Browser.Reply first = put(olivia, "/api/health/thresholds", "{\"cpu\": {\"critical\": 0.99}}");
        alice.headers.put("If-Match", read);
        Browser.Reply second = put(alice, "/api/health/thresholds", "{\"memory\": {\"enabled\": false}}");

        assertThat(first.status()).as(first.body()).isEqualTo(200);
        String now = first.header("ETag");
        assertThat(now).isNotEqualTo(read).isEqualTo(olivia.get("/api/health/thresholds").header("ETag"));
        assertThat(second.status()).as(second.body()).isEqualTo(412);
        assertThat(second.json().path("code").asText()).isEqualTo("OMCP_PRECONDITION_FAILED");
        assertThat(second.json().path("error").asText()).contains("GET /api/health/thresholds again");
        assertThat(second.header("ETag")).isEqualTo(now);
        JsonNode kept = olivia.get("/api/health/thresholds").json().path("thresholds");
        assertThat(kept.path("cpu").path("critical").asDouble()).isEqualTo(0.99);
        assertThat(kept.path("memory").path("enabled").asBoolean()).isTrue();

        // the settings page holds the same thresholds, under its own version
        String page = alice.get("/api/settings").header("ETag");
        assertThat(page).matches("\"[0-9a-f]{32}\"").isNotEqualTo(now);
        assertThat(put(alice, "/api/settings", "{\"healthThresholds\": {}}").status()).isEqualTo(412);
        alice.headers.put("If-Match", page);
        assertThat(put(alice, "/api/settings", "{\"healthThresholds\": {}}").status()).isEqualTo(200);
        // the version olivia's change made is gone (the one she first read is back: the defaults again)
        olivia.headers.put("If-Match", now);
        assertThat(put(olivia, "/api/health/thresholds", "{}").status()).isEqualTo(412);

        // If-Match is the caller's choice: without it a change is made as before; a weak tag never matches
        olivia.headers.remove("If-Match");
        assertThat(put(olivia, "/api/health/thresholds", "{}").status()).isEqualTo(200);
        String current = olivia.get("/api/health/thresholds").header("ETag");
        olivia.headers.put("If-Match", "W/" + current);
        assertThat(put(olivia, "/api/health/thresholds", "{}").status()).isEqualTo(412);
        olivia.headers.put("If-Match", "\"0000\", " + current);
        assertThat(put(olivia, "/api/health/thresholds", "{}").status()).isEqualTo(200);
        olivia.headers.put("If-Match", "*");
        assertThat(put(olivia, "/api/health/thresholds", "{}").status()).isEqualTo(200);
        olivia.headers.put("If-Match", current.replace("\"", ""));
        Browser.Reply malformed = put(olivia, "/api/health/thresholds", "{}");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().path("code").asText()).isEqualTo("OMCP_INVALID_THRESHOLDS");
        assertThat(malformed.json().path("error").asText()).contains("If-Match").contains("quotes included");

        assertThat(audited("health")).extracting(AuditEvent::status).containsExactly(200, 412, 412, 200, 412, 200, 200, 400);
    }

    @Test
    void addingASource_isAuditedUnderItsName_whichIsInTheBodyNotThePath() throws IOException {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply added = olivia.post("/api/sources", "{\"name\": \"edge-prometheus\", \"type\": \"prometheus\", "
                + "\"url\": \"http://127.0.0.1:1\"}");
        Browser.Reply refused = olivia.post("/api/sources", "{\"name\": \"bad-settings\", \"type\": \"prometheus\"}");

        assertThat(added.status()).as(added.body()).isEqualTo(201);
        // a source the connector cannot run (no url) is refused, not saved as a failed source
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_SOURCE_INVALID");
        assertThat(refused.json().path("reason").asText()).contains("needs a url");
        assertThat(olivia.get("/api/sources").body()).contains("edge-prometheus").doesNotContain("bad-settings");
        assertThat(audited("sources")).extracting(AuditEvent::target, AuditEvent::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("edge-prometheus", 201),
                        org.assertj.core.groups.Tuple.tuple("bad-settings", 400));
    }

    @Test
    void aPutThatLeavesEnabledOut_keepsADisabledSourceDisabled() throws IOException {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        assertThat(put(olivia, "/api/sources/shared-prometheus", "{\"type\": \"prometheus\", \"enabled\": false}").status())
                .isEqualTo(200);

        Browser.Reply changed = put(olivia, "/api/sources/shared-prometheus",
                "{\"type\": \"prometheus\", \"settings\": {\"serviceLabels\": [\"job\"]}}");

        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().path("source").path("enabled").asBoolean()).isFalse();
        assertThat(changed.json().path("source").path("status").asText()).isEqualTo("disabled");
        assertThat(olivia.get("/api/sources").json().path("sources").findValues("enabled").toString()).isEqualTo("[true, false]");
    }

    @Test
    void aTenantUserAskingForTheNameOfASourceTheyCannotSee_learnsOnlyThatTheNameIsTaken() throws IOException {
        start();
        Browser opal = ManagementUsers.login(gateway, "opal");
        assertThat(opal.get("/api/sources").body()).doesNotContain("globex-loki");

        Browser.Reply refused = opal.post("/api/sources", "{\"name\": \"globex-loki\", \"type\": \"prometheus\", "
                + "\"url\": \"http://127.0.0.1:1\"}");

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_SOURCE_EXISTS");
        assertThat(refused.json().path("error").asText()).isEqualTo("the name 'globex-loki' is not available (source names are "
                + "unique across the gateway); choose another name");
        // what a PUT would have sent it to: the same 404 as for a name nobody has
        assertThat(put(opal, "/api/sources/globex-loki", "{\"type\": \"loki\"}").json().path("code").asText())
                .isEqualTo("OMCP_SOURCE_NOT_FOUND");
    }

    @Test
    void aTenantsAdmin_readsASharedSource_butNeitherChangesNorRemovesIt_whileItsOwnTenantsSourcesStayItsToManage() throws IOException {
        start();
        Browser ada = ManagementUsers.login(gateway, "ada");
        Browser alice = ManagementUsers.login(gateway, "alice");
        String before = alice.get("/api/sources").body();
        Browser.Reply shared = ada.get("/api/sources/shared-prometheus");
        assertThat(shared.status()).as("a tenant's admin still reads the source every tenant uses").isEqualTo(200);

        Browser.Reply moved = put(ada, "/api/sources/shared-prometheus", "{\"type\": \"prometheus\", \"url\": \"http://127.0.0.1:2\"}");
        Browser.Reply taken = put(ada, "/api/sources/shared-prometheus", "{\"type\": \"prometheus\", \"tenant\": \"acme\"}");
        Browser.Reply removed = ada.send("DELETE", "/api/sources/shared-prometheus", null);

        for (Browser.Reply refused : List.of(moved, taken, removed)) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(403);
            assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_SOURCE_GATEWAY_WIDE");
            assertThat(refused.json().path("reason").asText()).isEqualTo(refused.json().path("error").asText())
                    .contains("'shared-prometheus'", "every tenant", "tenant 'acme'", "nothing changed", "operator without a tenant");
        }
        assertThat(alice.get("/api/sources").body()).as("no source changed").isEqualTo(before);
        assertThat(audited("sources")).extracting(AuditEvent::actor, AuditEvent::status).containsExactly(
                org.assertj.core.groups.Tuple.tuple("ada", 403), org.assertj.core.groups.Tuple.tuple("ada", 403),
                org.assertj.core.groups.Tuple.tuple("ada", 403));

        // a source of its own tenant: added, changed and removed as before
        assertThat(ada.post("/api/sources", "{\"name\": \"acme-prometheus\", \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:1\"}")
                .status()).isEqualTo(201);
        assertThat(put(ada, "/api/sources/acme-prometheus", "{\"type\": \"prometheus\", \"enabled\": false}").status()).isEqualTo(200);
        assertThat(ada.send("DELETE", "/api/sources/acme-prometheus", null).status()).isEqualTo(204);
        // and an operator without a tenant still changes the shared one
        assertThat(put(alice, "/api/sources/shared-prometheus", "{\"type\": \"prometheus\", \"enabled\": false}").status()).isEqualTo(200);
    }

    @Test
    void settings_showNoSecretOrPath_andChangeOnlyWhatIsChangeable() throws IOException {
        start(Map.of("OMCP_MGMT_AUDIT_FILE", dir.resolve("audit.jsonl").toString()));
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply view = olivia.get("/api/settings");
        assertThat(view.status()).isEqualTo(200);
        assertThat(view.json().path("fixed").path("authMode").asText()).isEqualTo("basic");
        assertThat(view.json().path("fixed").path("auditPersisted").asBoolean()).isTrue();
        assertThat(view.json().path("changeable").path("healthThresholds").has("error_rate")).isTrue();
        assertThat(view.body()).doesNotContain(TestGateway.SECRET).doesNotContain(dir.toString()).doesNotContain("/tmp")
                .doesNotContain("127.0.0.1").doesNotContain("scrypt");

        Browser.Reply applied = put(olivia, "/api/settings", "{\"healthThresholds\": {\"memory\": {\"enabled\": false}}}");
        assertThat(applied.status()).isEqualTo(200);
        assertThat(applied.json().path("changeable").path("healthThresholds").path("memory").path("enabled").asBoolean()).isFalse();

        Browser.Reply refused = put(olivia, "/api/settings", "{\"authMode\": \"anonymous\", \"colour\": \"red\"}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_INVALID_SETTINGS");
        assertThat(refused.json().path("errors").toString()).contains("authMode: fixed at start").contains("colour: unknown setting");

        Browser.Reply viewer = put(ManagementUsers.login(gateway, "victor"), "/api/settings", "{}");
        assertThat(viewer.status()).isEqualTo(403);
        assertThat(viewer.json().path("required").toString()).isEqualTo("{\"resource\":\"settings\",\"action\":\"write\"}");
        assertThat(audited("settings")).extracting(AuditEvent::status).containsExactly(200, 400, 403);
    }

    @Test
    void changingThresholdsThroughSettings_alsoNeedsHealthWrite_underACustomPolicy() throws IOException {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                roles:
                  viewer: [settings:read, settings:write]
                  operator: []
                  admin: []
                """);
        start(Map.of("OMCP_RBAC_POLICY_FILE", policy.toString()));
        Browser victor = ManagementUsers.login(gateway, "victor");

        Browser.Reply refused = put(victor, "/api/settings", "{\"healthThresholds\": {}}");

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("required").toString()).isEqualTo("{\"resource\":\"health\",\"action\":\"write\"}");
        assertThat(refused.json().path("have").toString()).isEqualTo("[\"settings:read\",\"settings:write\"]");
    }

    @Test
    void thePlayground_runsTheToolAsTheCaller_throughTheSameHooksAsMcp() throws IOException {
        start();
        List<String> seen = new CopyOnWriteArrayList<>();
        gateway.assembly().hooks().register(new HookRegistration("watcher", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE,
                (context, payload) -> {
                    seen.add(context.principal() + " " + context.target());
                    return "secret".equals(payload.getJsonObject("args").getString("namespace", ""))
                            ? HookResult.deny("namespace secret is off limits") : HookResult.proceed();
                }));
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply ran = olivia.post("/api/playground/invoke", "{\"tool\": \"get_topology\", \"arguments\": {\"namespace\": \"shop\"}}");
        assertThat(ran.status()).isEqualTo(200);
        assertThat(ran.json().path("tool").asText()).isEqualTo("get_topology");
        assertThat(ran.json().path("isError").asBoolean()).isFalse();
        assertThat(ran.json().path("structuredContent").path("caller").asText()).isEqualTo("olivia");
        assertThat(ran.json().path("content").get(0).path("type").asText()).isEqualTo("text");

        Browser.Reply blocked = olivia.post("/api/playground/invoke", "{\"tool\": \"get_topology\", \"arguments\": {\"namespace\": \"secret\"}}");
        // spec 6.1 rule 2: a refusing hook answers an error result whose text is the reason
        assertThat(blocked.status()).isEqualTo(200);
        assertThat(blocked.json().path("isError").asBoolean()).isTrue();
        assertThat(blocked.json().path("content").get(0).path("text").asText()).isEqualTo("namespace secret is off limits");

        olivia.get("/api/services");
        assertThat(seen).containsExactly("olivia get_topology", "olivia get_topology", "olivia list_services");

        Browser.Reply invalidArguments = olivia.post("/api/playground/invoke", "{\"tool\": \"get_topology\", \"arguments\": {\"limit\": 0}}");
        assertThat(invalidArguments.status()).isEqualTo(200);
        assertThat(invalidArguments.json().path("isError").asBoolean()).isTrue();
        assertThat(invalidArguments.json().path("content").get(0).path("text").asText()).contains("Invalid arguments for get_topology");

        assertThat(audited("playground")).extracting(AuditEvent::target, AuditEvent::action, AuditEvent::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("get_topology", "invoke", 200),
                        org.assertj.core.groups.Tuple.tuple("get_topology", "invoke", 200),
                        org.assertj.core.groups.Tuple.tuple("get_topology", "invoke", 200));
    }

    @Test
    void thePlayground_refusesBadRequestsWithAClearCode() throws IOException, InterruptedException {
        start();
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Map<String, String> bad = Map.of(
                "{\"tool\": \"nope\"}", "404 OMCP_UNKNOWN_TOOL",
                "{\"arguments\": {}}", "400 OMCP_INVALID_BODY",
                "{\"tool\": \"get_topology\", \"arguments\": [1]}", "400 OMCP_INVALID_BODY",
                "{\"tool\": \"get_topology\", \"colour\": 1}", "400 OMCP_INVALID_BODY",
                "{\"tool\": \"get_topology\", \"tool\": \"list_services\"}", "400 OMCP_INVALID_BODY",
                "[1, 2]", "400 OMCP_INVALID_BODY",
                "{\"tool\": ", "400 OMCP_INVALID_BODY",
                "{\"tool\": \"" + "x".repeat(129) + "\"}", "400 OMCP_INVALID_BODY",
                "{\"tool\": \"get_topology\", \"arguments\": {\"pad\": \"" + "x".repeat(1024 * 1024) + "\"}}", "413 OMCP_BODY_TOO_LARGE");
        for (Map.Entry<String, String> request : bad.entrySet()) {
            Browser.Reply reply = olivia.post("/api/playground/invoke", request.getKey());
            String label = request.getKey().length() > 80 ? request.getKey().substring(0, 80) : request.getKey();
            assertThat(reply.status() + " " + reply.json().path("code").asText()).as(label).isEqualTo(request.getValue());
            assertThat(reply.json().path("error").asText()).as(label).isNotBlank();
        }

        HttpResponse<String> plain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.base() + "/api/playground/invoke"))
                .header("Content-Type", "text/plain")
                .header("Cookie", olivia.cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")))
                .header("X-CSRF-Token", olivia.cookies.get("omcp-csrf"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"tool\": \"get_topology\"}"))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(415);
        assertThat(plain.body()).contains("OMCP_UNSUPPORTED_MEDIA_TYPE");

        HttpResponse<String> notUtf8 = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.base() + "/api/playground/invoke"))
                .header("Content-Type", "application/json")
                .header("Cookie", olivia.cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")))
                .header("X-CSRF-Token", olivia.cookies.get("omcp-csrf"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {'{', '"', (byte) 0xff, (byte) 0xfe, '"', '}'}))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(notUtf8.statusCode()).isEqualTo(400);
        assertThat(notUtf8.body()).contains("OMCP_INVALID_BODY").contains("UTF-8");

        olivia.sendCsrf = false;
        Browser.Reply noCsrf = olivia.post("/api/playground/invoke", "{\"tool\": \"get_topology\"}");
        assertThat(noCsrf.status()).isEqualTo(403);
        assertThat(noCsrf.json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");

        Browser.Reply viewer = ManagementUsers.login(gateway, "victor").post("/api/playground/invoke", "{\"tool\": \"get_topology\"}");
        assertThat(viewer.status()).isEqualTo(403);
        assertThat(viewer.json().path("required").toString()).isEqualTo("{\"resource\":\"playground\",\"action\":\"invoke\"}");
    }

    @Test
    void everyMutatingRouteRefusesBodiesOver1MiB_withJsonAndACode() throws IOException, InterruptedException {
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String oversized = "{\"pad\": \"" + "x".repeat(1024 * 1024) + "\"}";
        for (String[] route : new String[][] {
                {"POST", "/api/sources"}, {"PUT", "/api/sources/shared-prometheus"}, {"POST", "/api/sources/test"},
                {"POST", "/api/auth/revocations"}, {"POST", "/api/auth/login"}, {"PUT", "/api/settings"},
                {"PUT", "/api/health/thresholds"}, {"POST", "/api/playground/invoke"}, {"POST", "/api/postmortems"}}) {
            Browser.Reply declared = alice.send(route[0], route[1], oversized);
            assertThat(declared.status()).as(route[1]).isEqualTo(413);
            assertThat(declared.json().path("code").asText()).as(route[1]).isEqualTo("OMCP_BODY_TOO_LARGE");

            HttpResponse<String> chunked = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.base() + route[1]))
                    .header("Content-Type", "application/json")
                    .header("Cookie", alice.cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining("; ")))
                    .header("X-CSRF-Token", alice.cookies.get("omcp-csrf"))
                    .method(route[0], HttpRequest.BodyPublishers.ofInputStream(
                            () -> new java.io.ByteArrayInputStream(oversized.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(chunked.statusCode()).as("chunked " + route[1]).isEqualTo(413);
            assertThat(chunked.body()).as("chunked " + route[1]).contains("\"code\":\"OMCP_BODY_TOO_LARGE\"");
        }
    }
}
