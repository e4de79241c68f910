package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.adapters.http.usage.UsageRoutes;
import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.testkit.time.ManualClock;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * spec 8, "Per-credential override": a key's own limit, or none, set through {@code Gateway.Builder.requestRate}
 * as an embedding service (or the launcher, from {@code OMCP_KEY_RATE_PER_MIN}) sets it, through the real server.
 */
class McpRateLimitOverridesIT {
    private static final String DEFAULT_TOKEN = "default-0123456789abcdef";
    private static final String BULK_TOKEN = "bulk-0123456789abcdef";
    private static final String BATCH_TOKEN = "batch-0123456789abcdef";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
    private static GatewayHttpServer server;

    @BeforeAll
    static void start() {
        // the clock never moves: every request falls in one window
        ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
        Gateway gateway = Gateway.builder().version("test").clock(clock)
                .apiKeys(List.of(ApiKey.of("plain", DEFAULT_TOKEN, ""), ApiKey.of("bulk", BULK_TOKEN, ""),
                        ApiKey.of("batch", BATCH_TOKEN, "")))
                .requestRate(RateLimit.of(1), Map.of("bulk", RateLimit.of(3), "batch", RateLimit.disabled()))
                .build();
        server = GatewayHttpServer.builder()
                .settings(HttpServerSettings.loopback(0))
                .clock(clock)
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .requestRate(gateway.requestRate())
                .description(gateway.description())
                .module(new UsageRoutes(gateway.requestRate(), gateway.tokenUsage()))
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static McpHttpClient agent(String token) {
        return new McpHttpClient("http://127.0.0.1:" + server.port(), Map.of("Authorization", "Bearer " + token));
    }

    @Test
    void eachKey_isLimitedByItsOverride_orTheDefault_orNotAtAll() {
        McpHttpClient plain = agent(DEFAULT_TOKEN);
        assertThat(plain.initialize().headers().firstValue("X-RateLimit-Limit")).hasValue("1");
        assertThat(plain.post(PING, Map.of()).statusCode()).as("the default of 1").isEqualTo(429);

        McpHttpClient bulk = agent(BULK_TOKEN);
        for (int remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> answer = remaining == 2 ? bulk.initialize() : bulk.post(PING, Map.of());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
            assertThat(answer.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(remaining));
        }
        HttpResponse<String> refused = bulk.post(PING, Map.of());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(McpHttpClient.parse(refused.body()).getInt("limit")).isEqualTo(3);

        McpHttpClient batch = agent(BATCH_TOKEN);
        assertThat(batch.initialize().statusCode()).isEqualTo(200);
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> answer = batch.post(PING, Map.of());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue("X-RateLimit-Limit")).as("a disabled limit states none").isEmpty();
        }

        String usage = Http.get("http://127.0.0.1:" + server.port() + "/api/usage").body();
        assertThat(McpHttpClient.parse(usage).toString()).isEqualTo("{\"identities\":["
                + "{\"actor\":\"key:batch\",\"count\":11,\"limit\":null,\"windowMs\":60000},"
                + "{\"actor\":\"key:bulk\",\"count\":3,\"limit\":3,\"windowMs\":60000},"
                + "{\"actor\":\"key:plain\",\"count\":1,\"limit\":1,\"windowMs\":60000}],"
                + "\"defaultLimit\":1,\"windowMs\":60000,\"tokens\":{\"defaultLimit\":null,\"windowMs\":86400000}}");
    }
}
