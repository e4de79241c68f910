package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /readyz} while the audit log cannot record (docs/mcp.md, "Probes"): the gateway keeps
 * serving agents, so the replica stays in the load balancer, and the probe names the audit check,
 * without the file's path, until entries are written again.
 */
class ReadinessAuditIT {
    @TempDir
    Path dir;

    private Path auditDirectory() {
        return dir.resolve("audit");
    }

    private RunningGateway start() throws Exception {
        Files.createDirectories(auditDirectory());
        return RunningGateway.start(Map.of("OMCP_MGMT_AUDIT_FILE", auditDirectory().resolve("audit.jsonl").toString()));
    }

    private static HttpResponse<String> readyz(RunningGateway gateway) {
        return Http.get(gateway.baseUrl() + "/readyz");
    }

    /** A management change (each writes an audit entry, and is refused while none can be written). */
    private static HttpResponse<String> change(RunningGateway gateway) {
        return Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/api/health/thresholds"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                // a bearer header is exempt from the CSRF check (spec 4.3), as for any non-browser client
                .header("Authorization", "Bearer test-cli")
                .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
    }

    private static String recording(RunningGateway gateway) {
        return McpHttpClient.parse(Http.get(gateway.baseUrl() + "/api/audit?limit=1").body()).getString("recording");
    }

    private static void assertReadyWithoutDegradation(RunningGateway gateway) {
        HttpResponse<String> response = readyz(gateway);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonObject body = McpHttpClient.parse(response.body());
        assertThat(body.getString("status")).isEqualTo("ready");
        assertThat(body.getJsonArray("degraded")).as(response.body()).isEmpty();
    }

    private void assertReadyWithTheAuditCheck(RunningGateway gateway, String recording, String todo) {
        HttpResponse<String> response = readyz(gateway);
        assertThat(response.statusCode()).as("agents are still served: the replica stays in the load balancer").isEqualTo(200);
        JsonObject body = McpHttpClient.parse(response.body());
        assertThat(body.getString("status")).isEqualTo("ready");
        assertThat(body.getJsonArray("degraded")).as(response.body()).singleElement().satisfies(item -> {
            JsonObject check = item.asJsonObject();
            assertThat(check.getString("check")).isEqualTo("audit");
            assertThat(check.getString("recording")).isEqualTo(recording);
            assertThat(check.getString("detail")).contains("OMCP_AUDIT_UNAVAILABLE").contains(todo);
        });
        assertThat(response.body()).as("the file's path stays in the operator's log").doesNotContain(dir.toString())
                .doesNotContain("audit.jsonl");
    }

    @Test
    void whileTheAuditFileCannotBeReached_readyzStaysReadyAndNamesTheAuditCheck_untilAnEntryIsWrittenAgain() throws Exception {
        try (RunningGateway gateway = start()) {
            assertReadyWithoutDegradation(gateway);
            assertThat(change(gateway).statusCode()).isEqualTo(200);

            // the file's path stops resolving with an error, not as missing (as a network volume that answers
            // errors for a while): the next entry cannot be written, yet the file is there again afterwards. A link
            // to itself in the directory's place fails every lookup through it (ELOOP) without touching the open file
            Path away = Files.move(auditDirectory(), dir.resolve("audit-away"));
            Files.createSymbolicLink(auditDirectory(), auditDirectory().toAbsolutePath());
            change(gateway); // made already when its entry fails: answered as it was, and from then on changes are refused
            HttpResponse<String> refused = change(gateway);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("OMCP_AUDIT_UNAVAILABLE");
            assertThat(recording(gateway)).isEqualTo("failing");

            assertReadyWithTheAuditCheck(gateway, "failing", "by itself");
            McpHttpClient agent = new McpHttpClient(gateway.baseUrl());
            agent.initialize();
            // toolResult fails on a JSON-RPC error or an error result: the call is answered with the sources
            assertThat(agent.toolResult("list_sources", "{}").getJsonObject("structuredContent"))
                    .as("agents' tool calls are not audited, so not refused").containsKey("sources");
            assertThat(Http.get(gateway.baseUrl() + "/metrics").body()).contains("omcp_audit_recording 0.0");

            Files.delete(auditDirectory());
            Files.move(away, auditDirectory());
            // the refused change's own entry is the next attempt to write: it succeeds, and the audit check clears
            assertThat(change(gateway).statusCode()).isEqualTo(503);
            assertThat(recording(gateway)).isEqualTo("ok");
            assertReadyWithoutDegradation(gateway);
            assertThat(change(gateway).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void afterTheAuditFileWasDeleted_readyzStaysReadyAndSaysARestartIsNeeded_andTheRestartClearsIt() throws Exception {
        try (RunningGateway gateway = start()) {
            assertThat(change(gateway).statusCode()).isEqualTo(200);

            Files.delete(auditDirectory().resolve("audit.jsonl"));
            change(gateway);
            assertThat(change(gateway).statusCode()).isEqualTo(503);
            assertThat(recording(gateway)).isEqualTo("stopped");

            assertReadyWithTheAuditCheck(gateway, "stopped", "restart");
        }
        try (RunningGateway restarted = start()) {
            assertReadyWithoutDegradation(restarted);
            assertThat(change(restarted).statusCode()).isEqualTo(200);
        }
    }
}
