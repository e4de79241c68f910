package dev.omcp.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.McpHttpClient;
import jakarta.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * spec 5.7 through real HTTP against the demo's Loki: {@code query_logs} skips redaction only for a key listed in
 * {@code OMCP_KEY_BYPASS_REDACTION} whose roles ({@code OMCP_KEY_ROLES}) hold {@code redaction:bypass}, on a call that
 * sets {@code bypass_redaction}; any gate missing leaves the output redacted.
 */
class RedactionBypassIT {
    private static final String FORENSICS = "forensics-token-0123456789abcdef";
    private static final String LISTED_VIEWER = "viewer-token-0123456789abcdef0";
    private static final String ADMIN_UNLISTED = "admin-token-0123456789abcdef01";
    private static final String SIGNED_IN = "{\"service\":\"frontend\",\"filter\":\"signed in\",\"limit\":5,\"bypass_redaction\":true}";
    private static DemoGateway demo;

    @BeforeAll
    static void start() {
        demo = DemoGateway.start(Map.of(
                "OMCP_API_KEYS", "forensics:" + FORENSICS + ",viewer:" + LISTED_VIEWER + ",admin:" + ADMIN_UNLISTED,
                "OMCP_KEY_ROLES", "forensics=admin;viewer=viewer;admin=admin",
                "OMCP_KEY_BYPASS_REDACTION", "forensics,viewer"));
    }

    @AfterAll
    static void stop() {
        demo.close();
    }

    private static JsonObject logs(String token, String arguments) {
        McpHttpClient agent = McpHttpClient.at(demo.baseUrl() + "/mcp", Map.of("Authorization", "Bearer " + token));
        agent.initialize();
        return agent.tool("query_logs", arguments);
    }

    @Test
    void allThreeGates_showTheLinesAsLokiSentThem_andTheAnswerSaysSo() {
        JsonObject granted = logs(FORENSICS, SIGNED_IN);

        assertThat(granted.getJsonArray("lines")).isNotEmpty();
        assertThat(granted.getJsonArray("lines").toString()).contains("@example.");
        assertThat(granted.getJsonObject("redaction").getBoolean("applied")).isFalse();
        assertThat(granted.getJsonObject("redaction").getBoolean("bypassGranted")).isTrue();
        assertThat(granted.getString("note")).contains("Redaction was skipped for this call");
    }

    @Test
    void aMissingGate_leavesTheOutputRedacted() {
        for (String token : new String[] {LISTED_VIEWER, ADMIN_UNLISTED}) {
            JsonObject refused = logs(token, SIGNED_IN);
            assertThat(refused.getJsonArray("lines")).isNotEmpty();
            assertThat(refused.getJsonArray("lines").toString()).doesNotContain("@example.").contains("[REDACTED:email]");
            assertThat(refused.getJsonObject("redaction").getBoolean("bypassGranted")).isFalse();
        }
        JsonObject withoutFlag = logs(FORENSICS, SIGNED_IN.replace(",\"bypass_redaction\":true", ""));
        assertThat(withoutFlag.getJsonArray("lines").toString()).doesNotContain("@example.");
        assertThat(withoutFlag.getJsonObject("redaction").getBoolean("applied")).isTrue();
    }
}
