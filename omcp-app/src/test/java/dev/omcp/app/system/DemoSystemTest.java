package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.LauncherProcess;
import dev.omcp.app.support.McpHttpClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code omcp demo} as a newcomer runs it (issue 4, item 7): the launcher jar as a process, with no
 * backend and no setting of their own. The in-process demo tests hand the gateway the reference
 * plugin directory of the build; only this test shows that the jar carries the signed Zipkin plugin
 * and its trust root itself, so the traces and topology tools answer in the shipped demo too.
 */
class DemoSystemTest {
    private static final List<String> TWELVE_TOOLS = List.of("list_sources", "list_services", "query_metrics", "query_logs",
            "get_service_health", "detect_anomalies", "get_topology", "get_blast_radius", "get_anomaly_history", "enrich_ips",
            "query_traces", "generate_postmortem");

    private static JsonObject tool(McpHttpClient client, String name, String arguments) {
        return client.tool(name, arguments);
    }

    @Test
    void demo_onAPortInUse_saysSoInItsOwnWords_withoutJavalinsFailureLineBeforeThem() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                LauncherProcess launcher = LauncherProcess.start(Map.of("PORT", String.valueOf(taken.getLocalPort())), "demo")) {
            int port = taken.getLocalPort();
            assertThat(launcher.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            assertThat(launcher.stderr()).contains("omcp: cannot start the demo, cannot listen on 127.0.0.1:" + port + ": PORT " + port
                    + " is already in use by another process; stop it, or set PORT to a free port (0 picks one)");
            assertThat(launcher.stdout()).noneMatch(line -> line.contains("io.javalin") || line.contains("Failed to start"));
            assertThat(launcher.stderr()).noneMatch(line -> line.contains("io.javalin") || line.contains("Failed to start"));
        }
    }

    @Test
    void demo_startsTheShopBehindTheGateway_withEveryToolAndTheBundledZipkinPlugin_andStopsOnSigterm() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of(), "demo")) {
            int port = launcher.awaitPort(Duration.ofSeconds(60));
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + port);
            assertThat(client.initialize().statusCode()).isEqualTo(200);

            List<String> listed = client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                    .map(t -> t.asJsonObject().getString("name")).toList();
            assertThat(listed).containsAll(TWELVE_TOOLS);

            JsonObject sources = tool(client, "list_sources", "{}");
            Map<String, JsonObject> byName = sources.getJsonArray("sources").stream().map(JsonValue::asJsonObject)
                    .collect(java.util.stream.Collectors.toMap(s -> s.getString("name"), s -> s));
            assertThat(byName).containsOnlyKeys("prometheus", "loki", "kubernetes", "zipkin");
            assertThat(byName.values()).allSatisfy(s -> assertThat(s.getString("status")).as(s.toString()).isEqualTo("connected"));
            assertThat(byName.get("zipkin").getJsonArray("capabilities").getValuesAs(JsonString::getString)).contains("queryTraces");

            JsonObject traces = tool(client, "query_traces", "{\"service\":\"payments\",\"errorsOnly\":true}");
            assertThat(traces.getJsonArray("sources").getValuesAs(JsonString::getString)).containsExactly("zipkin");
            assertThat(traces.getJsonObject("summary").getInt("total")).isPositive();

            JsonObject anomalies = tool(client, "detect_anomalies", "{}");
            assertThat(anomalies.getJsonArray("rootCauses").getJsonObject(0).getString("service")).isEqualTo("payments-db");

            // the demo's files go away with it: threshold changes are said to last until it stops, not beyond
            String thresholds = Http.get("http://127.0.0.1:" + port + "/api/health/thresholds").body();
            assertThat(thresholds).contains("\"persisted\":false");

            assertThat(String.join("\n", launcher.stdout())).contains("demo listening on").contains("payments-db");
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }
}
