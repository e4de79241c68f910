package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.CheckedToolCalls;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.connectors.builtin.egress.GuardedResolverProvider;
import dev.omcp.core.guidance.AgentGuide;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.testkit.demo.DemoBackends;
import dev.omcp.testkit.files.ScratchDirectory;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link EmbeddedObservabilityExample} in its own JVM without any launcher class, over the demo
 * shop's simulated Prometheus and Loki (on the wall clock, as the example reads it), whose payments
 * database slowed down 25 minutes ago: through real HTTP {@code /mcp} it serves the twelve tools,
 * the usage guide and the prompts, and the tools find the incident.
 *
 * <p>The backends are named {@code localhost}, not 127.0.0.1, so every connection goes through
 * the egress resolver; the test registers it as docs/embedding.md tells an embedding service to, in
 * a resources directory of its own on the example's class path, and shows what a service that
 * forgets to gets.
 */
class EmbeddedObservabilityIT {
    /** What ObservabilityTools.all serves, in the order tools/list shows it. */
    private static final List<String> TWELVE_TOOLS = List.of("list_sources", "list_services", "query_metrics", "query_logs",
            "get_service_health", "detect_anomalies", "get_topology", "get_blast_radius", "query_traces", "enrich_ips",
            "generate_postmortem", "get_anomaly_history");
    static final String RESOLVER_REGISTRATION = "META-INF/services/java.net.spi.InetAddressResolverProvider";

    private static DemoBackends backends;
    private static ScratchDirectory resources;
    private static ExampleProcess example;
    private static String token;
    private static String logBotToken;
    private static McpHttpClient client;
    private static CheckedToolCalls tools;

    @BeforeAll
    static void start() throws IOException {
        backends = DemoBackends.startStandard();
        resources = ScratchDirectory.create("omcp-embedding-it");
        Path registration = resources.resolve(RESOLVER_REGISTRATION);
        Files.createDirectories(registration.getParent());
        Files.writeString(registration, GuardedResolverProvider.class.getName() + "\n");
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        token = HexFormat.of().formatHex(secret);
        new SecureRandom().nextBytes(secret);
        logBotToken = HexFormat.of().formatHex(secret);
        example = ExampleProcess.start(EmbeddedObservabilityExample.class, List.of(resources.path()),
                List.of(byName(backends.prometheusUrl()), byName(backends.lokiUrl())), List.of(token, logBotToken));
        client = agent();
        client.initialize();
        tools = new CheckedToolCalls(client);
    }

    /** A client that presents the agent's key. */
    private static McpHttpClient agent() {
        return new McpHttpClient(example.baseUrl(), Map.of("Authorization", "Bearer " + token));
    }

    private static String byName(String loopbackUrl) {
        assertThat(loopbackUrl).startsWith("http://127.0.0.1:");
        return loopbackUrl.replace("://127.0.0.1:", "://localhost:");
    }

    @AfterAll
    static void stop() throws IOException, InterruptedException {
        try {
            if (example != null) {
                assertThat(example.stop(Duration.ofSeconds(20))).as("the example exits when its stdin closes").isTrue();
            }
        } finally {
            if (example != null) {
                example.close();
            }
            if (backends != null) {
                backends.close();
            }
            if (resources != null) {
                resources.close();
            }
        }
    }

    @Test
    void initialize_namesTheServiceAndPointsTheAgentToTheGuideAndThePrompts() {
        JsonObject result = McpHttpClient.parse(McpHttpClient.lastMessage(agent().initialize())).getJsonObject("result");

        assertThat(result.getJsonObject("serverInfo").getString("name")).isEqualTo("shop-observability");
        assertThat(result.getString("instructions")).isEqualTo(AgentGuide.INSTRUCTIONS);
    }

    @Test
    void apiInfo_reportsTheRedactionTheToolsApply_andTheTraceSourcesItHas() throws Exception {
        HttpResponse<String> info;
        try (HttpClient http = HttpClient.newHttpClient()) {
            info = http.send(HttpRequest.newBuilder(URI.create(example.baseUrl() + "/api/info")).build(), HttpResponse.BodyHandlers.ofString());
        }

        assertThat(info.statusCode()).isEqualTo(200);
        JsonObject governance = McpHttpClient.parse(info.body()).getJsonObject("governance");
        assertThat(governance.getBoolean("redaction")).isTrue();
        assertThat(governance.getString("authMode")).isEqualTo("anonymous");
        assertThat(governance.getInt("tracesCapabilityCount")).as("Prometheus and Loki answer no trace search").isZero();
    }

    @Test
    void anAgentWithoutTheKey_isRefused() {
        HttpResponse<String> response = new McpHttpClient(example.baseUrl()).initialize();

        assertThat(response.statusCode()).isEqualTo(401);
    }

    @Test
    void withoutTheResolverRegistration_backendsNamedByHost_failAtStart_andTheOperatorsLogSaysWhatToRegister() throws Exception {
        try (ExampleProcess unregistered = ExampleProcess.start(EmbeddedObservabilityExample.class, List.of(),
                List.of(byName(backends.prometheusUrl()), byName(backends.lokiUrl())), List.of(token, logBotToken))) {
            McpHttpClient agent = new McpHttpClient(unregistered.baseUrl(), Map.of("Authorization", "Bearer " + token));
            agent.initialize();

            // before: both read as connected while every request was refused
            JsonObject sources = agent.tool("list_sources", "{}");
            assertThat(sources.getJsonArray("sources").getValuesAs(JsonObject.class)).hasSize(2).allSatisfy(source -> {
                assertThat(source.getString("status")).isEqualTo("failed");
                // the agent cannot register anything: it is told to ask the operator, whose log says what to register
                assertThat(source.getString("problem")).isEqualTo(SourceRegistry.NAME_UNCHECKED_FOR_AGENTS);
            });
            JsonObject services = agent.tool("list_services", "{}");
            assertThat(services.getJsonArray("services")).isEmpty();
            assertThat(services.getString("note")).contains("No connected source", "list_sources");
            // written while the sources connected, before the example announced its port
            assertThat(unregistered.output()).filteredOn(line -> line.contains("event=source-url-rejected")).hasSize(2)
                    .allSatisfy(line -> assertThat(line).contains(GuardedResolverProvider.class.getName(), RESOLVER_REGISTRATION));
            assertThat(unregistered.stop(Duration.ofSeconds(20))).as("the example exits when its stdin closes").isTrue();
        }
    }

    @Test
    void toolsList_servesTheTwelveObservabilityTools() {
        List<String> names = client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                .map(t -> t.asJsonObject().getString("name")).toList();

        assertThat(names).containsExactlyElementsOf(TWELVE_TOOLS);
    }

    @Test
    void aKeyWithToolAndSourceLists_seesOnlyThoseToolsAndThatSource() {
        McpHttpClient logBot = new McpHttpClient(example.baseUrl(), Map.of("Authorization", "Bearer " + logBotToken));
        logBot.initialize();

        assertThat(logBot.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                .map(t -> t.asJsonObject().getString("name")).toList()).containsExactly("list_sources", "query_logs");
        assertThat(logBot.tool("list_sources", "{}").getJsonArray("sources").stream().map(s -> s.asJsonObject().getString("name"))
                .toList()).containsExactly("loki");
        assertThat(logBot.call("tools/call", "{\"name\":\"query_metrics\",\"arguments\":{}}").getJsonObject("error")
                .getString("message")).startsWith("Unknown tool 'query_metrics'");
    }

    @Test
    void listSources_showsBothBackendsConnected_withoutTheirUrls() {
        JsonObject result = tools.tool("list_sources", "{}");

        assertThat(result.getJsonArray("sources").stream().map(JsonValue::asJsonObject))
                .extracting(s -> s.getString("name") + "=" + s.getString("status"))
                .containsExactlyInAnyOrder("prometheus=connected", "loki=connected");
        assertThat(result.toString()).doesNotContain("localhost");
    }

    @Test
    void listServices_findsTheShopsServicesInBothSources() {
        JsonObject result = tools.tool("list_services", "{}");

        assertThat(result.getBoolean("partial")).as(result.toString()).isFalse();
        List<JsonObject> services = result.getJsonArray("services").getValuesAs(JsonObject.class);
        assertThat(services).extracting(s -> s.getString("name"))
                .contains("frontend", "catalog", "catalog-cache", "checkout", "inventory", "payments", "payments-db");
        JsonObject payments = services.stream().filter(s -> s.getString("name").equals("payments")).findFirst().orElseThrow();
        assertThat(payments.getJsonArray("sources").getValuesAs(JsonString::getString)).contains("prometheus", "loki");
    }

    @Test
    void queryMetrics_showsThePaymentsDatabaseSlowerNowThanAnHourAgo() {
        JsonObject result = tools.tool("query_metrics", "{\"service\":\"payments-db\",\"metric\":\"latency_p99\",\"duration\":\"1h\"}");

        assertThat(result.getString("resolvedSeries")).contains("histogram_quantile(0.99", "job=\"payments-db\"");
        assertThat(result.getBoolean("partial")).isFalse();
        List<Double> values = result.getJsonArray("series").getJsonObject(0).getJsonObject("downsampled").getJsonArray("values").stream()
                .filter(v -> v.getValueType() == JsonValue.ValueType.NUMBER).map(v -> ((JsonNumber) v).doubleValue()).toList();
        // the incident began 25 minutes ago: the database answers many times slower than before it
        assertThat(values.getLast()).as(values.toString()).isGreaterThan(values.getFirst() * 5);
    }

    @Test
    void serviceHealth_findsThePaymentsDatabaseUnwellBecauseOfItsLatency() {
        JsonObject result = tools.tool("get_service_health", "{\"service\":\"payments-db\"}");

        assertThat(result.getString("status")).as(result.toString()).isIn("degraded", "critical");
        assertThat(result.getJsonArray("anomalies").toString()).contains("latency_p99");
    }

    @Test
    void queryLogs_readsThePaymentsTimeoutsFromLoki() {
        JsonObject result = tools.tool("query_logs", "{\"service\":\"payments\",\"level\":\"error\",\"limit\":5}");

        assertThat(result.getJsonArray("lines").toString()).contains("timeout acquiring connection from pool payments-db");
    }

    @Test
    void theGuideAndThePrompts_areServed_andThePromptsCompleteServiceNamesFromTheSources() {
        JsonObject guide = client.call("resources/read", "{\"uri\":\"" + AgentGuide.URI + "\"}")
                .getJsonObject("result").getJsonArray("contents").getJsonObject(0);
        assertThat(guide.getString("text")).contains("## The incident recipe");

        List<String> prompts = client.call("prompts/list", "{}").getJsonObject("result").getJsonArray("prompts").stream()
                .map(p -> p.asJsonObject().getString("name")).toList();
        assertThat(prompts).containsExactly("triage-incident", "write-postmortem");

        JsonObject completion = client.call("completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"triage-incident\"},\"argument\":{\"name\":\"service\",\"value\":\"pay\"}}")
                .getJsonObject("result").getJsonObject("completion");
        assertThat(completion.getJsonArray("values").getValuesAs(JsonString::getString)).containsExactly("payments", "payments-db");
    }
}
