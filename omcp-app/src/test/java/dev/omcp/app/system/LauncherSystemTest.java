package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.audit.FsyncPolicy;
import dev.omcp.adapters.storage.audit.JsonlAuditLog;
import dev.omcp.adapters.storage.audit.TornTailPolicy;
import dev.omcp.app.support.Http;
import dev.omcp.app.support.LauncherProcess;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.core.audit.AuditChain;
import dev.omcp.ports.audit.AuditEvent;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
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

    /** {@code timeout 20 ./omcp serve}, systemd's KillMode=control-group: SIGTERM to java, then again to its process group. */
    @Test
    void aSigtermEchoedAMillisecondLater_isTheSameRequest_soInFlightRequestsStillFinish_andTheExitIsZero() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("OMCP_SHUTDOWN_GRACE", "20"), "serve", "--test-conformance-fixture")) {
            int port = launcher.awaitPort(Duration.ofSeconds(30));
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + port);
            client.initialize();
            CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> client.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
                            + "\"params\":{\"name\":\"omcp_test_sleep\",\"arguments\":{\"millis\":2500}}}",
                    Map.of()));
            Thread.sleep(500); // let the slow call reach the handler before the signals
            launcher.terminate();
            Thread.sleep(1);
            launcher.terminate();
            HttpResponse<String> response = slow.get();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(McpHttpClient.lastMessage(response)).contains("slept 2500 ms");
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).as("drained, not halted with 143").isZero();
        }
    }

    @Test
    void aSecondSigterm_duringTheDrain_stopsAtOnce_with143() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("OMCP_SHUTDOWN_GRACE", "120"), "serve", "--test-conformance-fixture")) {
            int port = launcher.awaitPort(Duration.ofSeconds(30));
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + port);
            client.initialize();
            CompletableFuture.runAsync(() -> client.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"omcp_test_sleep\",\"arguments\":{\"millis\":25000}}}",
                    Map.of()));
            Thread.sleep(500); // let the slow call reach the handler before the signals
            launcher.terminate();
            Thread.sleep(1200); // past the second in which a repeat is taken as the same request
            assertThat(launcher.process().isAlive()).as("the first signal drains: the 25-second call holds the process").isTrue();
            long start = System.nanoTime();
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(15))).as("128 + SIGTERM").isEqualTo(143);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            assertThat(String.join("\n", launcher.stderr())).contains("omcp: a second SIGTERM: stopping now");
        }
    }

    @Test
    void sigterm_theMomentTheGatewayAnnouncesItsPort_stillStopsGracefullyWithZero() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of(), "serve")) {
            launcher.awaitPort(Duration.ofSeconds(30));
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).as("not 143: the signal handlers were in place").isZero();
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            assertThat(String.join("\n", launcher.stderr())).contains("event=stopped");
        }
    }

    @Test
    void invalidSettings_areAllReportedAndTheProcessExitsOne() throws Exception {
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("PORT", "70000", "OMCP_LOG_FORMAT", "yaml"), "serve")) {
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("PORT must be an integer from 0 to 65535, got '70000'")
                    .contains("OMCP_LOG_FORMAT must be one of text, json, got 'yaml'");
        }
    }

    /** Sloppy values that once passed or puzzled: a plugins "directory" that is a file, a duration with a unit. */
    @Test
    void aPluginsDirThatIsAFile_andADurationWithAUnit_areReportedTogether_withoutAStackTrace(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plugins"), "a file, not the directory");
        Map<String, String> env = Map.of("PLUGINS_DIR", file.toString(), "OMCP_TOOL_DEADLINE", "20s");
        try (LauncherProcess launcher = LauncherProcess.start(env, "serve")) {
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("PLUGINS_DIR names '" + file + "', which is not a directory")
                    .contains("OMCP_TOOL_DEADLINE must be an integer from 1 to 900 (seconds, written without a unit), got '20s'")
                    .doesNotContain("\tat ", "Exception");
            assertThat(launcher.stdout()).as("nothing listened").isEmpty();
        }
    }

    // spec 5.4: tokens never appear in logs, not even at the most verbose level and not as their digest
    @Test
    void aShortSessionSecret_refusesTheStart_namingItsLengthButNotItsValue() throws Exception {
        String secret = "my-weak-session-secret";
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("OMCP_SESSION_SECRET", secret, "OMCP_AUDIT_FSYNC", "sometimes"), "serve")) {
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("OMCP_SESSION_SECRET is 22 characters long; it needs at least 32")
                    .as("reported together with the other invalid setting").contains("OMCP_AUDIT_FSYNC must be one of always, batch, never")
                    .doesNotContain(secret);
            assertThat(launcher.stdout()).noneMatch(line -> line.contains("listening on"));
        }
    }

    @Test
    void aMisspeltVariable_isWarnedAbout_withTheNameItMeans_andItsValueIsNeverShown() throws Exception {
        String value = "misspelt-value-7f3a";
        try (LauncherProcess launcher = LauncherProcess.start(
                Map.of("OMCP_REDACTON", value, "OMCP_SESION_SECRET", value, "PROMETHEUS_ULR", "http://" + value + ":9090"), "serve")) {
            launcher.awaitPort(Duration.ofSeconds(30));
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).as("unknown variables never stop the start").isZero();
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("WARN").contains("event=unknown-variable name=OMCP_REDACTON suggestion=OMCP_REDACTION")
                    .contains("event=unknown-variable name=OMCP_SESION_SECRET suggestion=OMCP_SESSION_SECRET")
                    .as("a near miss of a name without the prefix").contains("event=unknown-variable name=PROMETHEUS_ULR suggestion=PROMETHEUS_URL");
            assertThat(stderr + String.join("\n", launcher.stdout())).doesNotContain(value);
        }
    }

    @Test
    void bearerTokens_neverAppearInTheLogs_evenAtTraceLevel() throws Exception {
        String token = "agent-secret-0123456789abcdef";
        String guessed = "guessed-secret-fedcba9876543210";
        try (LauncherProcess launcher = LauncherProcess.start(
                Map.of("OMCP_API_KEYS", "agent:" + token, "OMCP_LOG_LEVEL", "trace"), "serve")) {
            int port = launcher.awaitPort(Duration.ofSeconds(30));
            String base = "http://127.0.0.1:" + port;
            assertThat(new McpHttpClient(base, Map.of("Authorization", "Bearer " + token)).initialize().statusCode()).isEqualTo(200);
            assertThat(new McpHttpClient(base, Map.of("X-API-Key", token)).initialize().statusCode()).isEqualTo(200);
            assertThat(new McpHttpClient(base, Map.of("Authorization", "Bearer " + guessed)).initialize().statusCode()).isEqualTo(401);
            assertThat(new McpHttpClient(base, Map.of("X-API-Key", guessed)).initialize().statusCode()).isEqualTo(401);
            Socket accepted = Socket.open(port, "bearer." + token);
            accepted.socket().sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", true).get(10, TimeUnit.SECONDS);
            assertThat(accepted.closed()).as("the right token keeps the socket open").isNotDone();
            accepted.close();
            assertThat(Socket.open(port, "bearer." + guessed).closeCodeFromTheServer()).as("a wrong token closes with 1008").isEqualTo(1008);
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).isZero();
            launcher.awaitOutputDrained(Duration.ofSeconds(10));

            String output = String.join("\n", launcher.stdout()) + "\n" + String.join("\n", launcher.stderr());
            assertThat(output).as("the logs were captured at all").contains("event=listening").contains("event=stopped");
            for (String secret : new String[] {token, guessed}) {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
                assertThat(output).doesNotContain(secret)
                        .doesNotContainIgnoringCase(HexFormat.of().formatHex(digest))
                        .doesNotContain(Base64.getEncoder().withoutPadding().encodeToString(digest))
                        .doesNotContain(Base64.getUrlEncoder().withoutPadding().encodeToString(digest));
            }
        }
    }

    /** A socket on /mcp/ws with a bearer subprotocol, and the close code it will see. */
    private record Socket(WebSocket socket, CompletableFuture<Integer> closed) {
        static Socket open(int port, String subprotocol) throws Exception {
            CompletableFuture<Integer> closed = new CompletableFuture<>();
            WebSocket.Listener listener = new WebSocket.Listener() {
                @Override
                public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
                    closed.complete(statusCode);
                    return null;
                }
            };
            WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols(subprotocol)
                    .buildAsync(URI.create("ws://127.0.0.1:" + port + "/mcp/ws"), listener).get(10, TimeUnit.SECONDS);
            return new Socket(socket, closed);
        }

        int closeCodeFromTheServer() throws Exception {
            return closed.get(10, TimeUnit.SECONDS);
        }

        void close() throws Exception {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aHostItCannotListenOn_isReportedAsTheHost_notAsABusyPort() throws Exception {
        // 192.0.2.1 (TEST-NET-1) is an address, but never one of this machine's
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("HOST", "192.0.2.1"), "serve")) {
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("omcp: cannot start, cannot listen on 192.0.2.1:0: HOST '192.0.2.1' is not an address of this machine")
                    .doesNotContain("omcp: cannot start, Port already in use").doesNotContain("Failed to start Javalin");
            assertThat(launcher.stdout()).noneMatch(line -> line.contains("listening on") || line.contains("Failed to start Javalin"));
        }
    }

    @Test
    void aPortInUse_isSaidInTheGatewaysOwnWords_withoutJavalinsFailureLineBeforeThem() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                LauncherProcess launcher = LauncherProcess.start(Map.of("PORT", String.valueOf(taken.getLocalPort())), "serve")) {
            int port = taken.getLocalPort();
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            assertThat(launcher.stderr()).contains("omcp: cannot start, cannot listen on 127.0.0.1:" + port + ": PORT " + port
                    + " is already in use by another process; stop it, or set PORT to a free port (0 picks one)");
            // Javalin's "ERROR io.javalin.Javalin Failed to start Javalin" said less, first, and at ERROR
            assertThat(launcher.stdout()).noneMatch(line -> line.contains("io.javalin") || line.contains("Failed to start"));
            assertThat(launcher.stderr()).noneMatch(line -> line.contains("io.javalin") || line.contains("Failed to start"));
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
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("omcp: cannot start, the sources file's health: thresholds: block is invalid")
                    .contains("health.thresholds.error_rate.critical: 0.1 must be greater than degraded (0.5)")
                    .contains("health.thresholds.disk: unknown signal")
                    .doesNotContain("\tat dev.omcp");
            assertThat(launcher.stdout()).noneMatch(line -> line.contains("listening on"));
        }
    }

    @Test
    void aSourcesFileThatDoesNotRead_isSaidOnce_notAgainAsASkippedSource(@TempDir Path dir) throws Exception {
        Path sources = Files.writeString(dir.resolve("sources.yaml"), "sources: [\n");
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("CONFIG_PATH", sources.toString()), "serve")) {
            launcher.awaitPort(Duration.ofSeconds(30));
            launcher.terminate();
            assertThat(launcher.awaitExit(Duration.ofSeconds(20))).as("a broken sources file does not stop the start").isZero();
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("event=sources-file-unreadable").doesNotContain("event=source-skipped");
            assertThat(stderr.split("is not valid YAML", -1)).as(stderr).hasSize(2);
        }
    }

    @Test
    void anAlteredAuditFile_refusesTheStartInOneLine_sayingWhatToRun(@TempDir Path dir) throws Exception {
        Path audit = dir.resolve("audit.jsonl");
        AuditChain chain = new AuditChain(new JsonlAuditLog(audit, new JsonlAuditLog.Options(FsyncPolicy.ALWAYS, Duration.ofMillis(50),
                TornTailPolicy.REPAIR)), List.of(), Clock.systemUTC()).start();
        chain.record(new AuditEvent("user:alice", "", "sources", "write", "PUT", "/api/sources/prom", 200, "127.0.0.1", "prom"));
        chain.close();
        // the entry now names someone else under the hash of the original
        String altered = Files.readString(audit).replace("user:alice", "user:mallory");
        Files.writeString(audit, altered);
        try (LauncherProcess launcher = LauncherProcess.start(Map.of("OMCP_MGMT_AUDIT_FILE", audit.toString()), "serve")) {
            assertThat(launcher.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            launcher.awaitOutputDrained(Duration.ofSeconds(10));
            String stderr = String.join("\n", launcher.stderr());
            assertThat(stderr).contains("omcp: cannot start, the audit log cannot be used: ").contains("omcp audit verify")
                    .doesNotContain("\tat dev.omcp");
            assertThat(launcher.stdout()).noneMatch(line -> line.contains("listening on"));
        }
        assertThat(Files.readString(audit)).as("the file is left for the operator to inspect").isEqualTo(altered);
    }
}
