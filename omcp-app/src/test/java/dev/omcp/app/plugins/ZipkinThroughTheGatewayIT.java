package dev.omcp.app.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import dev.omcp.testkit.backends.ZipkinServer;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code query_traces} and {@code get_topology} through {@code /mcp} with the signed zipkin
 * reference plugin in front of a real Zipkin server (io.zipkin:zipkin-server 3.6.1, in memory).
 */
@Tag("backend")
class ZipkinThroughTheGatewayIT {
    private static final List<String> PLUGIN_FILES = List.of("package.json", "manifest.json", "manifest.json.sig", "zipkin-connector.jar");

    @TempDir
    static Path work;

    private static ZipkinServer zipkin;
    private static RunningGateway gateway;
    private static McpHttpClient client;

    @BeforeAll
    static void start() throws IOException {
        zipkin = ZipkinServer.start();
        long t = Instant.now().minus(2, ChronoUnit.MINUTES).toEpochMilli() * 1000;
        // checkout calls payments twice: once quickly, once slowly with the card declined
        zipkin.postSpans("""
                [
                  {"traceId":"463ac35c9f6413ad48485a3953bb6124","id":"a2fb4a1d1a96d312","name":"post /checkout","kind":"SERVER",
                   "timestamp":%d,"duration":235000,"localEndpoint":{"serviceName":"checkout"}},
                  {"traceId":"463ac35c9f6413ad48485a3953bb6124","id":"b7ad6b7169203331","parentId":"a2fb4a1d1a96d312","name":"charge",
                   "kind":"SERVER","timestamp":%d,"duration":150000,"localEndpoint":{"serviceName":"payments"}},
                  {"traceId":"5b8efff798038103d269b633813fc60c","id":"eee19b7ec3c1b174","name":"post /checkout","kind":"SERVER",
                   "timestamp":%d,"duration":1240000,"localEndpoint":{"serviceName":"checkout"}},
                  {"traceId":"5b8efff798038103d269b633813fc60c","id":"eee19b7ec3c1b175","parentId":"eee19b7ec3c1b174","name":"charge",
                   "kind":"SERVER","timestamp":%d,"duration":1200000,"localEndpoint":{"serviceName":"payments"},"tags":{"error":"card declined"}}
                ]
                """.formatted(t, t + 50_000, t + 30_000_000, t + 30_010_000));

        Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));
        Path plugin = Files.createDirectories(work.resolve("plugins/zipkin"));
        for (String file : PLUGIN_FILES) {
            Files.copy(reference.resolve("plugins/zipkin").resolve(file), plugin.resolve(file));
        }
        Files.copy(reference.resolve("trust-root.pem"), work.resolve("trust-root.pem"));
        Path sources = Files.writeString(work.resolve("sources.yaml"), "sources:\n  - name: zipkin\n    type: zipkin\n    url: " + zipkin.url()
                + "\n    topologyNamespace: shop\n");
        gateway = RunningGateway.start(Map.of("CONFIG_PATH", sources.toString(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "PLUGINS_DIR", work.resolve("plugins").toString(), "PLUGIN_TRUST_ROOT", work.resolve("trust-root.pem").toString()));
        client = new McpHttpClient(gateway.baseUrl());
        client.initialize();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (zipkin != null) {
            zipkin.close();
        }
    }

    private static JsonObject tool(String name, String arguments) {
        return client.tool(name, arguments);
    }

    @Test
    void spec4_4_queryTraces_ranksTheFailingCheckoutFirst_withPercentilesOverWhatIsReturned() {
        JsonObject traces = tool("query_traces", "{\"service\":\"checkout\"}");
        assertThat(traces.getJsonArray("sources").getValuesAs(JsonString::getString)).containsExactly("zipkin");
        assertThat(traces.getJsonArray("traces").stream().map(JsonValue::asJsonObject).map(t -> t.getString("traceId")).toList())
                .containsExactly("5b8efff798038103d269b633813fc60c", "463ac35c9f6413ad48485a3953bb6124");
        JsonObject failed = traces.getJsonArray("traces").getJsonObject(0);
        assertThat(failed.getString("rootName")).isEqualTo("post /checkout");
        assertThat(failed.getString("rootService")).isEqualTo("checkout");
        assertThat(failed.getJsonNumber("durationMs").doubleValue()).isEqualTo(1240.0);
        assertThat(failed.getInt("spanCount")).isEqualTo(2);
        assertThat(failed.getBoolean("hasError")).isTrue();
        assertThat(traces.getJsonObject("summary").toString())
                .isEqualTo("{\"total\":2,\"errorCount\":1,\"p50DurationMs\":235.0,\"p95DurationMs\":1240.0}");
        assertThat(tool("query_traces", "{\"service\":\"checkout\",\"errorsOnly\":true}").getJsonArray("traces")).hasSize(1);
    }

    @Test
    void getTopology_showsTheCallZipkinDerivedFromTheSpans() {
        JsonObject topology = tool("get_topology", "{}");
        assertThat(topology.getJsonArray("edges").stream().map(JsonValue::asJsonObject).map(e -> e.getString("from") + " "
                + e.getString("relation") + " " + e.getString("to"))).containsExactly("service/shop/checkout CALLS service/shop/payments");
    }
}
