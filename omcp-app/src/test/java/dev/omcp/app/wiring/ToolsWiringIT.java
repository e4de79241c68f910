package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.adapters.http.rdap.RdapRegistrationLookup;
import dev.omcp.app.demo.DemoGateway;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import dev.omcp.core.analysis.postmortem.PostmortemTemplate;
import dev.omcp.core.guidance.AgentGuide;
import dev.omcp.core.ipenrich.IpEnricher;
import dev.omcp.core.ipenrich.IpEnrichment;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analysis settings wired into a running gateway: the governance block of {@code /api/info}
 * (spec 2.10) follows them, scores reach the remote-write receiver, the IP dataset and RDAP answer
 * {@code enrich_ips}' enricher, and the guide and prompts are served over {@code /mcp}.
 */
class ToolsWiringIT {
    @TempDir
    Path dir;

    private HttpServer receiver;
    private final List<Map<String, String>> writes = Collections.synchronizedList(new ArrayList<>());
    private final List<String> rdapPaths = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch rdapRelease = new CountDownLatch(1);
    @RegisterExtension
    final CapturedLog rdapLog = CapturedLog.of(RdapRegistrationLookup.class);

    @AfterEach
    void stop() {
        rdapRelease.countDown();
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    @Test
    void anRdapAnswerBehindAnAddressTheEgressRulesRefuse_isUnavailableAndNotTransient_namingWhatToChange() throws Exception {
        String base = startReceiver();
        try (RunningGateway gateway = RunningGateway.start(Map.of(
                "OMCP_IP_ENRICH_RDAP", base + "/rdap-redirect", "OMCP_ALLOW_PRIVATE_BACKENDS", "true"))) {
            IpEnricher.Result result = gateway.assembly().toolkit().ipEnricher().enrich(List.of("8.8.8.8"));

            // the registry redirected to the cloud-metadata address: refused on every attempt, so an agent must not retry
            assertThat(result.results().get(0)).isInstanceOfSatisfying(IpEnrichment.Unavailable.class, u -> {
                assertThat(u.transientFailure()).isFalse();
                // the agent reads what to do, not the internal address or the rule that refused it: that is the operator's
                assertThat(u.reason()).startsWith("the gateway's egress rules refuse the registry's address")
                        .contains("OMCP_IP_ENRICH_RDAP", "event=rdap-egress-refused").doesNotContain("169.254", "never allowed", base);
            });
            assertThat(rdapPaths).containsExactly("/rdap-redirect/ip/8.8.8.8");
            assertThat(rdapLog.warnings()).anySatisfy(line -> assertThat(line).startsWith("event=rdap-egress-refused host=\"169.254.169.254\" reason=")
                    .contains("never allowed").doesNotContain(base, "/ip/"));
        }
    }

    /** A loopback server: remote-write receiver at /api/v1/write, an RDAP service at /rdap. */
    private String startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        receiver.createContext("/api/v1/write", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            var h = exchange.getRequestHeaders();
            writes.add(Map.of("encoding", String.valueOf(h.getFirst("Content-Encoding")), "type", String.valueOf(h.getFirst("Content-Type")),
                    "version", String.valueOf(h.getFirst("X-Prometheus-Remote-Write-Version")),
                    "authorization", String.valueOf(h.getFirst("Authorization")), "bytes", Integer.toString(body.length)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.createContext("/rdap-redirect", exchange -> {
            rdapPaths.add(exchange.getRequestURI().getPath());
            exchange.getResponseHeaders().add("Location", "http://169.254.169.254/ip/8.8.8.8");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        receiver.createContext("/rdap-held", exchange -> {
            // counts, then holds the answer until the test lets it go, so calls asking meanwhile overlap
            rdapPaths.add(exchange.getRequestURI().getPath());
            try {
                if (!rdapRelease.await(10, TimeUnit.SECONDS)) {
                    exchange.sendResponseHeaders(503, -1);
                    exchange.close();
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        receiver.createContext("/rdap", exchange -> {
            rdapPaths.add(exchange.getRequestURI().getPath());
            byte[] answer = """
                    {"objectClassName": "ip network", "handle": "NET-1-1-1-0-1", "name": "LOOPBACK-TEST-NET",
                     "startAddress": "1.1.1.0", "endAddress": "1.1.1.255", "country": "AU", "port43": "whois.apnic.net",
                     "entities": [{"roles": ["registrant"], "vcardArray": ["vcard", [["fn", {}, "text", "Test Registrant"]]]}]}
                    """.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/rdap+json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        receiver.start();
        return "http://127.0.0.1:" + receiver.getAddress().getPort();
    }

    private static JsonObject governance(RunningGateway gateway) {
        return McpHttpClient.parse(Http.get(gateway.baseUrl() + "/api/info").body()).getJsonObject("governance");
    }

    @Test
    void withNothingConfigured_theGovernanceBlockSaysNoCatalogRedactionOnNoAnomalyHistoryAndNoTraces() {
        try (RunningGateway gateway = RunningGateway.start()) {
            JsonObject governance = governance(gateway);

            // spec 2.10 and 5.7: redaction is on by default, everything else is opt-in
            assertThat(governance.getBoolean("catalogConfigured")).isFalse();
            assertThat(governance.getBoolean("redaction")).isTrue();
            assertThat(governance.getBoolean("anomalyHistoryActive")).isFalse();
            assertThat(governance.getInt("tracesCapabilityCount")).isZero();
            assertThat(gateway.assembly().toolkit().history().remoteSinkConfigured()).isFalse();
        }
    }

    @Test
    void theGovernanceBlock_flipsWithTheSettings_andScoresReachTheRemoteWriteReceiver() throws Exception {
        String base = startReceiver();
        Path catalog = Files.writeString(dir.resolve("catalog.json"), "{\"services\": {\"checkout\": {\"owner\": \"team-shop\", \"tier\": 1}}}");
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_SERVICE_CATALOG_FILE", catalog.toString());
        env.put("OMCP_REDACTION", "off");
        env.put("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", base + "/api/v1/write");
        env.put("OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN", "rw-secret-token");
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");

        try (RunningGateway gateway = RunningGateway.start(env)) {
            JsonObject governance = governance(gateway);
            assertThat(governance.getBoolean("catalogConfigured")).isTrue();
            assertThat(governance.getBoolean("redaction")).isFalse();
            assertThat(governance.getBoolean("anomalyHistoryActive")).isTrue();
            // spec 2.10: no file paths or secrets in the public block
            assertThat(governance.toString()).doesNotContain(dir.toString()).doesNotContain("rw-secret-token").doesNotContain(base);

            var toolkit = gateway.assembly().toolkit();
            assertThat(toolkit.catalog().entry("checkout").orElseThrow().getString("owner")).isEqualTo("team-shop");
            assertThat(toolkit.redactionEnabled()).isFalse();
            Instant now = Instant.now();
            toolkit.history().recordAll(List.of(
                    new AnomalyScoreSample("", "checkout", "latency_p99", now, 5.2, true, Optional.of("step"), Optional.empty()),
                    new AnomalyScoreSample("", "checkout", "error_rate", now, 0.4, false, Optional.empty(), Optional.empty())));
            awaitWrites(1);
        }
        assertThat(writes.get(0)).containsEntry("encoding", "snappy").containsEntry("type", "application/x-protobuf")
                .containsEntry("version", "0.1.0").containsEntry("authorization", "Bearer rw-secret-token");
    }

    private void awaitWrites(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (writes.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(20); // the sink sends on its own thread, at most a second after the score
        }
        assertThat(writes).hasSizeGreaterThanOrEqualTo(n);
    }

    @Test
    void aRemoteWriteReceiverWhoseNameResolvesToLoopback_isRefusedAtStartWithoutPrivateBackendsAllowed() throws Exception {
        String base = startReceiver().replace("127.0.0.1", "localhost");
        var settings = SettingsReader.read(Map.of("HOST", "127.0.0.1", "PORT", "0",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE", base + "/api/v1/write"));

        // spec 5.9: a name is judged by what it resolves to, like a source's URL
        assertThatThrownBy(() -> GatewayAssembly.start(settings, GatewayAssembly.Options.none(), "test", Clock.systemUTC()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("OMCP_ANOMALY_HISTORY_REMOTE_WRITE: the host localhost is refused by the egress rules: ")
                .hasMessageContaining("OMCP_ALLOW_PRIVATE_BACKENDS=true");
        assertThat(writes).isEmpty();
    }

    @Test
    void concurrentCallsAboutTheSameAddress_sendTheRegistryOneRequest() throws Exception {
        String base = startReceiver();
        try (RunningGateway gateway = RunningGateway.start(Map.of(
                "OMCP_IP_ENRICH_RDAP", base + "/rdap-held", "OMCP_ALLOW_PRIVATE_BACKENDS", "true"))) {
            IpEnricher enricher = gateway.assembly().toolkit().ipEnricher();
            List<IpEnricher.Result> results = Collections.synchronizedList(new ArrayList<>());
            List<Thread> callers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                callers.add(Thread.ofVirtual().start(() -> results.add(enricher.enrich(List.of("9.9.9.9")))));
            }
            long giveUp = System.nanoTime() + 10_000_000_000L;
            while (rdapPaths.isEmpty() || !callers.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING)) {
                assertThat(System.nanoTime()).as("the calls wait for the registry within 10 s").isLessThan(giveUp);
                Thread.onSpinWait();
            }
            rdapRelease.countDown();
            for (Thread t : callers) {
                assertThat(t.join(Duration.ofSeconds(10))).isTrue();
            }

            assertThat(rdapPaths).containsExactly("/rdap-held/ip/9.9.9.9");
            assertThat(results).hasSize(4).allSatisfy(r -> assertThat(r.results().getFirst()).isInstanceOf(IpEnrichment.NotFound.class));
        }
    }

    @Test
    void theIpDatasetAndTheRdapFallback_answerTheEnricher() throws Exception {
        String base = startReceiver();
        Path csv = Files.writeString(dir.resolve("networks.csv"), "cidr,org,country\n10.20.0.0/16,Data centre A,NL\n");
        try (RunningGateway gateway = RunningGateway.start(Map.of("OMCP_IP_ENRICH_FILE", csv.toString(),
                "OMCP_IP_ENRICH_RDAP", base + "/rdap", "OMCP_ALLOW_PRIVATE_BACKENDS", "true"))) {
            IpEnricher.Result result = gateway.assembly().toolkit().ipEnricher().enrich(List.of("10.20.3.4", "1.1.1.1", "not-an-ip"));

            assertThat(result.results().get(0)).isInstanceOfSatisfying(IpEnrichment.Found.class,
                    f -> assertThat(f.toJson().toString()).contains("Data centre A", "\"source\":\"dataset\""));
            assertThat(result.results().get(1)).isInstanceOfSatisfying(IpEnrichment.Found.class,
                    f -> assertThat(f.toJson().toString()).contains("1.1.1.0/24", "Test Registrant", "APNIC", "\"source\":\"rdap\""));
            assertThat(result.results().get(2)).isInstanceOf(IpEnrichment.Invalid.class);
            assertThat(rdapPaths).containsExactly("/rdap/ip/1.1.1.1");
        }
    }

    @Test
    void thePostmortemTemplate_isReadAtEachCall_andAnUnreadableOneFallsBackToTheBuiltInLayout() throws Exception {
        Path template = dir.resolve("postmortem.md");
        try (RunningGateway gateway = RunningGateway.start(Map.of("OMCP_POSTMORTEM_TEMPLATE", template.toString()))) {
            var toolkit = gateway.assembly().toolkit();
            // spec 4.4: an unreadable template path falls back to the built-in layout
            assertThat(toolkit.postmortemTemplate()).isEmpty();

            Files.writeString(template, "# Incident on {{service}}\n{{synopsis}}\n");
            assertThat(toolkit.postmortemTemplate()).isPresent();

            Files.writeString(template, "x".repeat(PostmortemTemplate.MAX_LENGTH + 1));
            assertThat(toolkit.postmortemTemplate()).isEmpty();
        }
    }

    @Test
    void theGuideAndThePrompts_areServedOverMcp_andTheInstructionsPointToThem() {
        try (RunningGateway gateway = RunningGateway.start()) {
            McpHttpClient client = new McpHttpClient(gateway.baseUrl());
            JsonObject initialized = McpHttpClient.parse(McpHttpClient.lastMessage(client.initialize())).getJsonObject("result");
            assertThat(initialized.getString("instructions")).contains(AgentGuide.URI, "triage-incident", "write-postmortem");
            // the library's default title is the server's name; the launcher names itself
            assertThat(initialized.getJsonObject("serverInfo").getString("title")).isEqualTo("OMCP observability gateway");

            List<String> uris = client.call("resources/list", "{}").getJsonObject("result").getJsonArray("resources").stream()
                    .map(r -> r.asJsonObject().getString("uri")).toList();
            assertThat(uris).contains(AgentGuide.URI);
            JsonObject contents = client.call("resources/read", "{\"uri\":\"" + AgentGuide.URI + "\"}")
                    .getJsonObject("result").getJsonArray("contents").getJsonObject(0);
            assertThat(contents.getString("mimeType")).isEqualTo("text/markdown");
            assertThat(contents.getString("text")).contains("## The incident recipe");

            List<String> prompts = client.call("prompts/list", "{}").getJsonObject("result").getJsonArray("prompts").stream()
                    .map(p -> p.asJsonObject().getString("name")).toList();
            assertThat(prompts).contains("triage-incident", "write-postmortem");
            JsonObject triage = client.call("prompts/get", "{\"name\":\"triage-incident\",\"arguments\":{\"service\":\"shop/checkout\"}}")
                    .getJsonObject("result");
            assertThat(triage.getJsonArray("messages").getJsonObject(0).getJsonObject("content").getString("text"))
                    .contains("`shop/checkout`", "detect_anomalies");

            JsonObject refused = client.call("prompts/get", "{\"name\":\"write-postmortem\",\"arguments\":{\"service\":\"x\",\"duration\":\"soon\"}}");
            assertThat(refused.getJsonObject("error").getInt("code")).isEqualTo(-32602);
            assertThat(refused.getJsonObject("error").getString("message")).contains("argument duration 'soon' must be a number and a unit");
        }
    }

    @Test
    void theDemo_countsItsTracesSource_andCarriesTheShopsCatalogAndIpDataset() {
        try (DemoGateway demo = DemoGateway.start()) {
            JsonObject governance = governance(demo.gateway());

            // spec 2.10: the live count of sources serving traces (the demo's zipkin plugin)
            assertThat(governance.getInt("tracesCapabilityCount")).isEqualTo(1);
            assertThat(governance.getBoolean("catalogConfigured")).isTrue();
            var toolkit = demo.gateway().assembly().toolkit();
            assertThat(toolkit.catalog().entry("payments-db").orElseThrow().getString("owner")).isEqualTo("team-platform");
            assertThat(toolkit.ipEnricher().enrich(List.of("203.0.113.7")).toJson().toString()).contains("Example Transit, B.V.");
        }
    }

    @Test
    void theResourcesList_keepsTheConformanceFixturesResourcesBesideTheGuide() {
        try (RunningGateway gateway = RunningGateway.start()) {
            McpHttpClient client = new McpHttpClient(gateway.baseUrl());
            client.initialize();
            List<String> uris = client.call("resources/list", "{}").getJsonObject("result").getJsonArray("resources").stream()
                    .map(JsonValue::asJsonObject).map(r -> r.getString("uri")).toList();

            assertThat(uris).contains(AgentGuide.URI, "test://static-text");
        }
    }
}
