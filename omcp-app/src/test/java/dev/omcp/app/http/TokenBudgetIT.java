package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.ports.budget.CredentialTokenUsage;
import dev.omcp.testkit.demo.prometheus.FakePrometheusServer;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec 7.3, 8: the daily token budget over real HTTP. A key's answers are charged and its usage
 * survives a restart in OMCP_TOKEN_BUDGET_FILE; once over its cap, the key's next query_metrics
 * gets the refusal of spec 7.3, while another key and an anonymous caller still get data.
 */
class TokenBudgetIT {
    private static final String CI_TOKEN = "ci-0123456789abcdef0123";
    private static final String BOT_TOKEN = "bot-0123456789abcdef0123";
    private static final String QUERY =
            "{\"name\":\"query_metrics\",\"arguments\":{\"service\":\"%s\",\"metric\":\"cpu\",\"duration\":\"30m\"}}";

    @TempDir
    Path dir;

    private RunningGateway start(FakePrometheusServer prometheus, long dailyTokens) {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_API_KEYS", "ci:" + CI_TOKEN + ",bot:" + BOT_TOKEN);
        env.put("OMCP_TOOL_DAILY_TOKENS", Long.toString(dailyTokens));
        env.put("OMCP_TOKEN_BUDGET_FILE", dir.resolve("budget.json").toString());
        env.put("PROMETHEUS_URL", prometheus.baseUrl());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        return RunningGateway.start(env);
    }

    private static McpHttpClient client(RunningGateway gateway, String token) {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + token));
        assertThat(client.initialize().statusCode()).isEqualTo(200);
        return client;
    }

    private static JsonObject queryMetrics(McpHttpClient client, String service) {
        return client.call("tools/call", QUERY.formatted(service)).getJsonObject("result");
    }

    private static List<CredentialTokenUsage> usage(RunningGateway gateway) {
        return gateway.assembly().gateway().tokenUsage().snapshot().credentials();
    }

    @Test
    void aBudgetFileThatCannotBeRead_refusesTheStart_namingIt_ratherThanStartingEveryKeyFromZero() throws Exception {
        Path file = Files.writeString(dir.resolve("budget.json"), "{\"version\":1,\"credentials\":{\"key:ci\":[[1,");
        SimulatedSystem shop = SimulatedSystem.standard(Clock.systemUTC());
        try (FakePrometheusServer prometheus = FakePrometheusServer.start(shop)) {
            assertThatThrownBy(() -> start(prometheus, 1000).close())
                    .isInstanceOf(StartRefusedException.class)
                    .hasMessageStartingWith("OMCP_TOKEN_BUDGET_FILE " + file + " is not valid JSON")
                    .hasMessageContaining("move it away");
        }
        assertThat(Files.readString(file)).as("left as it was").endsWith("[[1,");
    }

    @Test
    void aKeyOverItsCap_isRefusedWithTheSpecBody_whileAnotherKeyAndAnonymousCallersStillGetData() throws Exception {
        SimulatedSystem shop = SimulatedSystem.standard(Clock.systemUTC());
        String service = shop.services().getFirst().name();
        try (FakePrometheusServer prometheus = FakePrometheusServer.start(shop)) {
            long charged;
            try (RunningGateway first = start(prometheus, 1_000_000)) {
                JsonObject answer = queryMetrics(client(first, CI_TOKEN), service);
                assertThat(answer.getBoolean("isError", false)).as(answer.toString()).isFalse();
                assertThat(answer.getJsonObject("structuredContent").getString("service")).isEqualTo(service);
                // DECISIONS.md: ceil(characters / 4 × 1.05) of the text the caller received
                long characters = answer.getJsonArray("content").getJsonObject(0).getString("text").length();
                charged = Math.ceilDiv(characters * 21, 80);
                assertThat(usage(first)).containsExactly(new CredentialTokenUsage("key:ci", charged, 1_000_000, 86_400_000L));
                // spec 2.9: GET /api/usage shows the charge beside the request count (anonymous management mode: open)
                HttpResponse<String> usage = Http.send(HttpRequest.newBuilder(URI.create(first.baseUrl() + "/api/usage?actor=ci"))
                        .timeout(Duration.ofSeconds(30)).GET().build());
                assertThat(usage.statusCode()).as(usage.body()).isEqualTo(200);
                JsonObject usageBody = McpHttpClient.parse(usage.body());
                assertThat(usageBody.getJsonArray("identities")).hasSize(1);
                JsonObject ci = usageBody.getJsonArray("identities").getJsonObject(0);
                assertThat(ci.getString("actor")).isEqualTo("key:ci");
                assertThat(ci.getJsonObject("tokens").toString())
                        .isEqualTo("{\"used\":" + charged + ",\"limit\":1000000,\"windowMs\":86400000}");
                assertThat(usageBody.getJsonObject("tokens").toString()).isEqualTo("{\"defaultLimit\":1000000,\"windowMs\":86400000}");
            }
            assertThat(Files.readString(dir.resolve("budget.json"))).as("written at shutdown").contains("\"key:ci\"");

            // restarted with a cap that holds one such answer but not two: the key's first answer still counts
            long cap = charged + charged / 2;
            try (RunningGateway second = start(prometheus, cap)) {
                JsonObject refused = queryMetrics(client(second, CI_TOKEN), service);

                assertThat(refused.getBoolean("isError")).isTrue();
                assertThat(refused.containsKey("structuredContent")).isFalse();
                JsonObject body = McpHttpClient.parse(refused.getJsonArray("content").getJsonObject(0).getString("text"));
                assertThat(body.keySet()).containsExactly("error", "tool", "used", "limit", "requested", "retryAfterSeconds",
                        "freedAtRetry", "message");
                assertThat(body.getString("error")).isEqualTo("OMCP_TOKEN_BUDGET_EXCEEDED");
                assertThat(body.getString("tool")).isEqualTo("query_metrics");
                assertThat(body.getJsonNumber("used").longValue()).isEqualTo(charged);
                assertThat(body.getJsonNumber("limit").longValue()).isEqualTo(cap);
                assertThat(body.getJsonNumber("requested").longValue()).isGreaterThan(cap - charged);
                assertThat(body.getJsonNumber("retryAfterSeconds").longValue()).isBetween(86_000L, 86_460L);
                assertThat(body.getJsonNumber("freedAtRetry").longValue()).isEqualTo(charged);
                assertThat(body.getString("message")).contains("retry in");

                JsonObject other = queryMetrics(client(second, BOT_TOKEN), service);
                assertThat(other.getBoolean("isError", false)).as(other.toString()).isFalse();
                assertThat(other.getJsonObject("structuredContent").getString("service")).isEqualTo(service);

                HttpResponse<String> anonymous = Http.send(HttpRequest.newBuilder(URI.create(second.baseUrl() + "/api/playground/invoke"))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        // anonymous management mode: the caller is anonymous; a bearer header skips the CSRF check (spec 4.3)
                        .header("Authorization", "Bearer not-an-api-key")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"query_metrics\",\"arguments\":"
                                + "{\"service\":\"" + service + "\",\"metric\":\"cpu\",\"duration\":\"30m\"}}"))
                        .build());
                assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(200);
                assertThat(McpHttpClient.parse(anonymous.body()).getBoolean("isError")).as(anonymous.body()).isFalse();

                assertThat(usage(second)).extracting(CredentialTokenUsage::actor).as("the anonymous call is not charged")
                        .containsExactly("key:bot", "key:ci");
            }
        }
    }
}
