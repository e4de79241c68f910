package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * spec 7.2 and 8: the per-credential request rate of the agent transport, through the launcher's
 * wiring and the real server. The gateway's clock is a manual one, so the window moves only when a
 * test moves it.
 */
class McpRateLimitIT {
    private static final String TOKEN = "ci-0123456789abcdef0123";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
    private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}";
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private RunningGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private RunningGateway start(Map<String, String> env) {
        gateway = RunningGateway.start(env, clock);
        return gateway;
    }

    private RunningGateway keyed(String ratePerMinute) {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_API_KEYS", "ci:" + TOKEN);
        if (ratePerMinute != null) {
            env.put("OMCP_TOOL_RATE_PER_MIN", ratePerMinute);
        }
        return start(env);
    }

    private McpHttpClient agent() {
        return new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + TOKEN));
    }

    @Test
    void theRequestOverTheLimit_gets429WithRetryAfterTheBodyAndTheHeaders_andDoesNotRun() throws Exception {
        keyed("3");
        McpHttpClient agent = agent();
        HttpResponse<String> first = agent.initialize();
        assertThat(first.statusCode()).isEqualTo(200);
        assertRateHeaders(first, 3, 2);
        HttpResponse<String> second = agent.post(TOOLS_LIST, Map.of());
        assertRateHeaders(second, 3, 1);
        clock.advance(Duration.ofMillis(15_500));
        HttpResponse<String> third = agent.post(TOOLS_LIST, Map.of());
        assertThat(third.statusCode()).isEqualTo(200);
        assertRateHeaders(third, 3, 0);

        // an initialize over the limit: had it run, it would have opened a session
        HttpResponse<String> refused = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + TOKEN)).initialize();
        assertThat(refused.statusCode()).isEqualTo(429);
        // the oldest request leaves the window 60 s after it came, 44.5 s from now: rounded up
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("45");
        assertRateHeaders(refused, 3, 0);
        assertThat(refused.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(refused.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        JsonObject body = McpHttpClient.parse(refused.body());
        assertThat(body.getString("code")).isEqualTo("OMCP_IDENTITY_RATE_LIMIT");
        assertThat(body.getInt("retryAfterSeconds")).isEqualTo(45);
        assertThat(body.getInt("limit")).isEqualTo(3);
        assertThat(body.getInt("windowMs")).isEqualTo(60_000);
        assertThat(body.getString("error")).contains("key:ci").contains("3 requests within 60 s").contains("in 45 s")
                .doesNotContain(TOKEN);

        String metrics = Http.get(gateway.baseUrl() + "/metrics").body();
        assertThat(metrics)
                .as("the refused initialize never reached the dispatcher")
                .contains("omcp_mcp_requests_total{method=\"initialize\",outcome=\"ok\",transport=\"streamable-http\"} 1.0")
                .contains("omcp_mcp_requests_total{method=\"tools/list\",outcome=\"ok\",transport=\"streamable-http\"} 2.0")
                .contains("omcp_mcp_refusals_total{reason=\"identity-rate-limit\",transport=\"streamable-http\"} 1.0");

        // the window slides: 60 s after them the two requests of the start leave it, the one of 15.5 s stays
        clock.advance(Duration.ofMillis(44_500));
        assertRateHeaders(agent.post(PING, Map.of()), 3, 1);
        assertRateHeaders(agent.post(PING, Map.of()), 3, 0);
        HttpResponse<String> refusedAgain = agent.post(PING, Map.of());
        assertThat(refusedAgain.statusCode()).isEqualTo(429);
        assertThat(refusedAgain.headers().firstValue("Retry-After")).as("when the request of 15.5 s leaves").hasValue("16");
    }

    @Test
    void oneKeysOwnRate_fromOmcpKeyRatePerMin_replacesTheDefault_andASkippedEntryLeavesTheDefault() {
        // spec 8 "Per-credential override": ci has its own 2, bot the default 4; the unknown key and the
        // non-numeric count are skipped (the start goes on)
        String botToken = "bot-0123456789abcdef0123";
        start(Map.of("OMCP_API_KEYS", "ci:" + TOKEN + ",bot:" + botToken, "OMCP_TOOL_RATE_PER_MIN", "4",
                "OMCP_KEY_RATE_PER_MIN", "ci=2;ghost=9;bot=lots"));
        McpHttpClient ci = agent();
        assertRateHeaders(ci.initialize(), 2, 1);
        assertRateHeaders(ci.post(PING, Map.of()), 2, 0);
        assertThat(ci.post(PING, Map.of()).statusCode()).isEqualTo(429);
        McpHttpClient bot = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + botToken));
        assertRateHeaders(bot.initialize(), 4, 3);
    }

    @Test
    void theSixtyFirstRequestOfAMinute_isRefused_byDefault() {
        // spec 8: 60 requests per minute per named bearer credential
        keyed(null);
        McpHttpClient agent = agent();
        agent.initialize();
        for (int i = 2; i <= 60; i++) {
            assertThat(agent.post(PING, Map.of()).statusCode()).as("request %d", i).isEqualTo(200);
        }
        HttpResponse<String> refused = agent.post(PING, Map.of());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("X-RateLimit-Limit")).hasValue("60");
    }

    @Test
    void everyKindOfRequestCounts_andEveryAnswerCarriesTheHeaders_refusalsAndStreamsToo() throws Exception {
        keyed("10");
        McpHttpClient agent = agent();
        assertRateHeaders(agent.initialize(), 10, 9);
        // a refusal after the credential was accepted (415) still counts and still says so
        assertRateHeaders(agent.post(PING, Map.of("Content-Type", "text/plain")), 10, 8);
        // a POST answered as an SSE stream: the headers go out with the stream's head
        HttpResponse<String> streamed = agent.post(PING, Map.of("Accept", "text/event-stream"));
        assertThat(streamed.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        assertRateHeaders(streamed, 10, 7);
        // the session's GET stream: headers arrive while it stays open
        HttpResponse<InputStream> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(mcp()).GET()
                .header("Authorization", "Bearer " + TOKEN).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", agent.sessionId()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = stream.body()) {
            assertThat(stream.statusCode()).isEqualTo(200);
            assertRateHeaders(stream, 10, 6);
        }
        HttpResponse<String> deleted = Http.send(HttpRequest.newBuilder(mcp()).DELETE().header("Authorization", "Bearer " + TOKEN)
                .header("Mcp-Session-Id", agent.sessionId()).timeout(Duration.ofSeconds(10)).build());
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertRateHeaders(deleted, 10, 5);
        // a CORS-less OPTIONS carries no credential and is not counted
        HttpResponse<String> options = Http.send(HttpRequest.newBuilder(mcp()).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10)).build());
        assertThat(options.headers().firstValue("X-RateLimit-Remaining")).isEmpty();
        assertRateHeaders(agent.post(PING, Map.of()), 10, 4);
    }

    @Test
    void anonymousTraffic_isExempt_noHeadersAndNo429() {
        start(Map.of("OMCP_TOOL_RATE_PER_MIN", "1"));
        McpHttpClient anonymous = new McpHttpClient(gateway.baseUrl());
        assertThat(anonymous.initialize().headers().firstValue("X-RateLimit-Limit")).isEmpty();
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> answer = anonymous.post(PING, Map.of());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().map().keySet())
                    .noneMatch(name -> name.toLowerCase(java.util.Locale.ROOT).startsWith("x-ratelimit"));
        }
    }

    @Test
    void aDisabledLimit_sendsNoHeaders_neverRefuses_andIsReportedAsNull() {
        keyed("Unlimited");
        McpHttpClient agent = agent();
        agent.initialize();
        for (int i = 0; i < 70; i++) {
            HttpResponse<String> answer = agent.post(PING, Map.of());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue("X-RateLimit-Limit")).isEmpty();
        }
        JsonObject usage = McpHttpClient.parse(Http.get(gateway.baseUrl() + "/api/usage").body());
        assertThat(usage.isNull("defaultLimit")).isTrue();
        JsonObject ci = usage.getJsonArray("identities").getJsonObject(0);
        assertThat(ci.getString("actor")).isEqualTo("key:ci");
        assertThat(ci.getInt("count")).as("a disabled limit still counts").isEqualTo(71);
        assertThat(ci.isNull("limit")).isTrue();
        assertThat(governance().isNull("toolRatePerMin")).isTrue();
    }

    @Test
    void theGovernanceBlock_reportsTheDefaultLimit() {
        // spec 2.10: toolRatePerMin
        keyed(null);
        assertThat(governance().getInt("toolRatePerMin")).isEqualTo(60);
        gateway.close();
        keyed("120");
        assertThat(governance().getInt("toolRatePerMin")).isEqualTo(120);
        gateway.close();
        keyed("0");
        assertThat(governance().getInt("toolRatePerMin")).as("0 falls back to 60").isEqualTo(60);
    }

    @Test
    void theUsage_listsEveryKey_withItsCountLimitAndWindow_sortedByActor() {
        start(Map.of("OMCP_API_KEYS", "zeta:" + TOKEN + ",alpha:alpha-0123456789abcdef", "OMCP_TOOL_RATE_PER_MIN", "5"));
        McpHttpClient zeta = agent();
        zeta.initialize();
        zeta.post(PING, Map.of());
        JsonObject usage = McpHttpClient.parse(Http.get(gateway.baseUrl() + "/api/usage").body());
        assertThat(usage.toString()).isEqualTo("{\"identities\":[{\"actor\":\"key:alpha\",\"count\":0,\"limit\":5,\"windowMs\":60000},"
                + "{\"actor\":\"key:zeta\",\"count\":2,\"limit\":5,\"windowMs\":60000}],\"defaultLimit\":5,\"windowMs\":60000,"
                + "\"tokens\":{\"defaultLimit\":null,\"windowMs\":86400000}}");
        clock.advance(Duration.ofMinutes(1));
        assertThat(McpHttpClient.parse(Http.get(gateway.baseUrl() + "/api/usage").body()).getJsonArray("identities")
                .getJsonObject(1).getInt("count")).as("requests leave the count with the window").isZero();
    }

    @Test
    void aWebSocketRequestOverTheLimit_getsAJsonRpcError_aNotificationIsDropped_andTheSocketStaysUsable() throws Exception {
        keyed("2");
        WebSocketIT.Frames frames = new WebSocketIT.Frames();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + TOKEN)
                .buildAsync(URI.create("ws://127.0.0.1:" + gateway.port() + "/mcp/ws"), frames).join();
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"ws\",\"version\":\"1\"}}}", true).join();
        assertThat(frames.next().getInt("id")).isEqualTo(1);
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", true).join();
        assertThat(frames.next().getInt("id")).isEqualTo(2);
        clock.advance(Duration.ofSeconds(20));

        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}", true).join();
        JsonObject refused = frames.next();
        assertThat(refused.getInt("id")).isEqualTo(3);
        JsonObject error = refused.getJsonObject("error");
        assertThat(error.getInt("code")).isEqualTo(-32029);
        assertThat(error.getString("message")).contains("key:ci").contains("in 40 s");
        assertThat(error.getJsonObject("data").toString())
                .isEqualTo("{\"code\":\"OMCP_IDENTITY_RATE_LIMIT\",\"retryAfterSeconds\":40,\"limit\":2,\"windowMs\":60000}");
        // a notification over the limit gets nothing (JSON-RPC answers none): it is dropped and counted
        socket.sendText("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", true).join();
        awaitMetrics(List.of(
                "omcp_mcp_refusals_total{reason=\"identity-rate-limit\",transport=\"websocket\"} 2.0",
                "omcp_mcp_requests_total{method=\"notifications/initialized\",outcome=\"dropped\",transport=\"websocket\"} 1.0",
                "omcp_mcp_requests_total{method=\"tools/list\",outcome=\"refused\",transport=\"websocket\"} 1.0"));

        clock.advance(Duration.ofSeconds(40));
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}", true).join();
        JsonObject listed = frames.next();
        assertThat(listed.getInt("id")).as("the next frame answers id 4: nothing answered the dropped notification").isEqualTo(4);
        assertThat(listed.getJsonObject("result").getJsonArray("tools")).isNotEmpty();
        assertThat(frames.closed).as("the socket stayed open").isNotDone();
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void switchingTransport_doesNotGetAroundTheLimit_theyShareOneCount() throws Exception {
        keyed("2");
        McpHttpClient agent = agent();
        agent.initialize();
        WebSocketIT.Frames frames = new WebSocketIT.Frames();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + TOKEN)
                .buildAsync(URI.create("ws://127.0.0.1:" + gateway.port() + "/mcp/ws"), frames).join();
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", true).join();
        assertThat(frames.next().getJsonObject("result")).isEmpty();
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", true).join();
        assertThat(frames.next().getJsonObject("error").getInt("code")).isEqualTo(-32029);
        assertThat(agent.post(PING, Map.of()).statusCode()).isEqualTo(429);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void aBatch_countsOnce_andOverTheLimitOnASocketGetsOneErrorPerRequestInIt() throws Exception {
        // spec 8: a JSON-RPC batch counts once
        keyed("3");
        McpHttpClient agent = agent();
        agent.initialize("2025-03-26");
        HttpResponse<String> batch = agent.post("[" + PING + "," + PING.replace("7", "9") + "]", Map.of());
        assertThat(batch.statusCode()).isEqualTo(200);
        assertRateHeaders(batch, 3, 1);

        WebSocketIT.Frames frames = new WebSocketIT.Frames();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + TOKEN)
                .buildAsync(URI.create("ws://127.0.0.1:" + gateway.port() + "/mcp/ws"), frames).join();
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"ws\",\"version\":\"1\"}}}", true).join();
        assertThat(frames.next().getInt("id")).isEqualTo(1);
        socket.sendText("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]", true).join();
        jakarta.json.JsonArray errors = jakarta.json.Json.createReader(new java.io.StringReader(frames.nextText())).readArray();
        assertThat(errors).extracting(error -> error.asJsonObject().getInt("id")).containsExactly(2, 3);
        assertThat(errors).allSatisfy(error -> assertThat(error.asJsonObject().getJsonObject("error").getInt("code")).isEqualTo(-32029));
        awaitMetrics(List.of("omcp_mcp_refusals_total{reason=\"identity-rate-limit\",transport=\"websocket\"} 1.0"));
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void theRefusalReason_isExportedFromZero_onBothTransports() {
        keyed(null);
        assertThat(Http.get(gateway.baseUrl() + "/metrics").body())
                .contains("omcp_mcp_refusals_total{reason=\"identity-rate-limit\",transport=\"streamable-http\"} 0.0")
                .contains("omcp_mcp_refusals_total{reason=\"identity-rate-limit\",transport=\"websocket\"} 0.0");
    }

    private JsonObject governance() {
        return McpHttpClient.parse(Http.get(gateway.baseUrl() + "/api/info").body()).getJsonObject("governance");
    }

    private URI mcp() {
        return URI.create(gateway.baseUrl() + "/mcp");
    }

    private static void assertRateHeaders(HttpResponse<?> response, int limit, int remaining) {
        // spec 8, "Rate headers"
        assertThat(response.headers().firstValue("X-RateLimit-Limit")).hasValue(Integer.toString(limit));
        assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(remaining));
        assertThat(response.headers().firstValue("X-RateLimit-Window-Ms")).hasValue("60000");
    }

    /** Counted as the message is refused, on the socket's thread: polled briefly, so a scrape racing it does not fail the test. */
    private void awaitMetrics(List<String> lines) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String text = Http.get(gateway.baseUrl() + "/metrics").body();
        while (!lines.stream().allMatch(text::contains) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            text = Http.get(gateway.baseUrl() + "/metrics").body();
        }
        assertThat(text).contains(lines);
    }
}
