package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import dev.omcp.testkit.loki.LokiFake;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec 5.4, DECISIONS.md "Agent transport": the per-key maps through real HTTP. One key limited to two tools and one
 * source, one bound to a tenant, one without limits, over four sources served by a recorded Loki.
 */
class PerKeyRestrictionsIT {
    private static final String LIMITED_TOKEN = "limited-0123456789abcdef";
    private static final String ACME_TOKEN = "acme-bot-0123456789abcdef";
    private static final String OPS_TOKEN = "ops-token-0123456789abcdef";
    @TempDir
    static Path dir;
    private static LokiFake loki;
    private static RunningGateway gateway;

    @BeforeAll
    static void start() throws IOException {
        loki = new LokiFake();
        loki.push(Map.of("service_name", "api"), Instant.now().minusSeconds(30), "{\"level\":\"error\",\"msg\":\"boom\"}");
        Path sources = dir.resolve("sources.yaml");
        Files.writeString(sources, """
                sources:
                  - name: logs-a
                    type: loki
                    url: ${LOKI_BASE}
                  - name: logs-b
                    type: loki
                    url: ${LOKI_BASE}
                  - name: acme-logs
                    type: loki
                    url: ${LOKI_BASE}
                    tenant: acme
                  - name: globex-logs
                    type: loki
                    url: ${LOKI_BASE}
                    tenant: globex
                """);
        gateway = RunningGateway.start(Map.of(
                "CONFIG_PATH", sources.toString(), "LOKI_BASE", loki.url(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "OMCP_API_KEYS", "limited:" + LIMITED_TOKEN + ",acme-bot:" + ACME_TOKEN + ",ops:" + OPS_TOKEN,
                "OMCP_KEY_TOOLS", "limited = list_sources | query_logs",
                "OMCP_KEY_SOURCES", "limited=logs-a",
                "OMCP_KEY_TENANTS", "acme-bot=acme"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (loki != null) {
            loki.close();
        }
    }

    private static McpHttpClient agent(String token) {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + token));
        assertThat(client.initialize().statusCode()).isEqualTo(200);
        return client;
    }

    private static List<String> toolNames(McpHttpClient client) {
        return client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                .map(JsonValue::asJsonObject).map(tool -> tool.getString("name")).toList();
    }

    private static List<String> sourceNames(McpHttpClient client) {
        return client.tool("list_sources", "{}").getJsonArray("sources").stream()
                .map(JsonValue::asJsonObject).map(source -> source.getString("name")).toList();
    }

    @Test
    void aKeyLimitedToTwoTools_listsOnlyThose_andAnotherIsAnUnknownTool() {
        McpHttpClient limited = agent(LIMITED_TOKEN);

        assertThat(toolNames(limited)).containsExactlyInAnyOrder("list_sources", "query_logs");
        JsonObject hidden = limited.call("tools/call", "{\"name\":\"query_metrics\",\"arguments\":{\"service\":\"api\","
                + "\"metric\":\"cpu\"}}").getJsonObject("error");
        JsonObject missing = limited.call("tools/call", "{\"name\":\"query_metricz\",\"arguments\":{}}").getJsonObject("error");
        assertThat(hidden.getString("message")).isEqualTo("Unknown tool 'query_metrics'; call tools/list for the tools you can use");
        assertThat(hidden.getInt("code")).isEqualTo(missing.getInt("code"));
        assertThat(hidden.getString("message").replace("query_metrics", "query_metricz")).isEqualTo(missing.getString("message"));
        assertThat(toolNames(agent(OPS_TOKEN))).as("a key without a list").contains("query_metrics", "list_services")
                .hasSizeGreaterThan(2);
    }

    @Test
    void aKeyLimitedToOneSource_listsAndQueriesOnlyThatOne() {
        McpHttpClient limited = agent(LIMITED_TOKEN);

        assertThat(sourceNames(limited)).containsExactly("logs-a");
        JsonObject logs = limited.tool("query_logs", "{\"service\":\"api\",\"duration\":\"5m\"}");
        assertThat(logs.toString()).contains("logs-a").doesNotContain("logs-b");
        String outside = errorText(limited, "logs-b");
        assertThat(outside).contains("source 'logs-b' does not exist").contains("logs-a").doesNotContain("acme-logs");
        assertThat(outside.replace("logs-b", "logs-z")).as("as a name no source has").isEqualTo(errorText(limited, "logs-z"));
    }

    /** The text of the error result of {@code query_logs} asked of {@code source}. */
    private static String errorText(McpHttpClient client, String source) {
        JsonObject result = client.call("tools/call", "{\"name\":\"query_logs\",\"arguments\":{\"service\":\"api\",\"source\":\""
                + source + "\"}}").getJsonObject("result");
        assertThat(result.getBoolean("isError", false)).as(result.toString()).isTrue();
        return result.getJsonArray("content").getJsonObject(0).getString("text");
    }

    @Test
    void aKeyBoundToATenant_doesNotSeeAnotherTenantsSource() {
        assertThat(sourceNames(agent(ACME_TOKEN))).containsExactly("acme-logs", "logs-a", "logs-b");
        assertThat(sourceNames(agent(OPS_TOKEN))).as("an unbound key").doesNotContain("acme-logs", "globex-logs").isNotEmpty();
    }
}
