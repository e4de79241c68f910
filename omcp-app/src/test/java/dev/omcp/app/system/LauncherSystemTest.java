package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.LauncherProcess;
import dev.omcp.app.support.McpHttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher jar as operators run it. */
class LauncherSystemTest {

    @Test
    void serve_answersInitializeAndToolsListWithZeroConnectorsAndSources() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of(), "serve")) {
            int port = launcher.awaitPort(Duration.ofSeconds(30));
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + port);
            assertThat(client.initialize().statusCode()).isEqualTo(200);
            assertThat(client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools")).isNotNull();
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).isZero();
        }
    }

    @Test
    void sigterm_letsInFlightRequestsFinishThenExitsZero() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("OMCP_SHUTDOWN_GRACE", "20"), "serve", "--test-conformance-fixture")) {
            int port = launcher.awaitPort(Duration.ofSeconds(30));
            String base = "http://127.0.0.1:" + port;
            McpHttpClient client = new McpHttpClient(base);
            client.initialize();
            CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> client.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"omcp_test_sleep\",\"arguments\":{\"millis\":2500}}}",
                    Map.of()));
            Thread.sleep(500); // let the slow call reach the handler before the signal
            launcher.terminate();
            Thread.sleep(300);
            assertThat(Http.get(base + "/readyz").statusCode()).as("not ready while draining").isEqualTo(503);
            HttpResponse<String> response = slow.get();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(McpHttpClient.lastMessage(response)).contains("slept 2500 ms");
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).isZero();
        }
    }

    @Test
    void invalidSettings_areAllReportedAndTheProcessExitsOne() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("PORT", "70000", "OMCP_LOG_FORMAT", "yaml"), "serve")) {
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            Thread.sleep(200);
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("PORT must be an integer from 0 to 65535, got '70000'")
                    .contains("OMCP_LOG_FORMAT must be one of text, json, got 'yaml'");
        }
    }

    @Test
    void anInvalidHealthBlockInTheSourcesFile_isReportedAndTheProcessExitsOne(@TempDir Path dir) throws Exception {
        Path sources = Files.writeString(dir.resolve("sources.yaml"), """
                sources: []
                health:
                  thresholds:
                    error_rate: {degraded: 0.5, critical: 0.1}
                    disk: {critical: 0.9}
                """);
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("CONFIG_PATH", sources.toString()), "serve")) {
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            Thread.sleep(200);
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("omcp: cannot start, the sources file's health: thresholds: block is invalid")
                    .contains("health.thresholds.error_rate.critical: 0.1 must be greater than degraded (0.5)")
                    .contains("health.thresholds.disk: unknown signal")
                    .doesNotContain("\tat dev.omcp");
            assertThat(launcher.stdout()).noneMatch(line -> line.contains("listening on"));
        }
    }
}
