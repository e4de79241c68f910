package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import dev.omcp.core.mcp.session.McpSessions;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The number of MCP sessions one credential may hold, over real HTTP: a client that opens sessions
 * without end (many concurrent {@code initialize} calls) gets 429 once its credential holds the
 * limit, and memory stays bounded; other credentials are unaffected.
 */
class McpSessionLimitsIT {
    private static final String FLOOD_TOKEN = "flood-token-0123456789abcdef";
    private static final String OTHER_TOKEN = "other-token-0123456789abcdef";
    private static RunningGateway gateway;

    @BeforeAll
    static void start() {
        // the request rate limit is off, so only the session limit can refuse
        gateway = RunningGateway.start(Map.of(
                "OMCP_API_KEYS", "flood:" + FLOOD_TOKEN + ",other:" + OTHER_TOKEN,
                "OMCP_TOOL_RATE_PER_MIN", "off"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void concurrentInitializesBeyondTheLimit_areRefused429_andExactlyTheLimitIsOpened() throws Exception {
        int limit = McpSessions.DEFAULT_MAX_PER_CREDENTIAL;
        int attempts = limit + 100;
        CountDownLatch gate = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
            for (int i = 0; i < attempts; i++) {
                answers.add(pool.submit(() -> {
                    gate.await();
                    return new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + FLOOD_TOKEN)).initialize();
                }));
            }
            gate.countDown();
            List<String> opened = new ArrayList<>();
            List<HttpResponse<String>> refused = new ArrayList<>();
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get();
                if (response.statusCode() == 200) {
                    opened.add(response.headers().firstValue("Mcp-Session-Id").orElseThrow());
                } else {
                    refused.add(response);
                }
            }
            assertThat(opened).hasSize(limit).doesNotHaveDuplicates();
            assertThat(refused).hasSize(attempts - limit).allSatisfy(response -> {
                assertThat(response.statusCode()).isEqualTo(429);
                assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
                JsonObject error = McpHttpClient.parse(response.body()).getJsonObject("error");
                assertThat(error.getInt("code")).isEqualTo(-32002);
                assertThat(error.getString("message")).contains("this credential holds " + limit).contains("DELETE /mcp");
            });

            McpHttpClient other = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + OTHER_TOKEN));
            assertThat(other.initialize().statusCode()).as("another credential is not affected").isEqualTo(200);

            HttpResponse<String> deleted = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Authorization", "Bearer " + FLOOD_TOKEN).header("Mcp-Session-Id", opened.get(0)).DELETE().build());
            assertThat(deleted.statusCode()).isEqualTo(204);
            assertThat(new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + FLOOD_TOKEN)).initialize().statusCode())
                    .as("a deleted session frees its place").isEqualTo(200);
        }
    }
}
