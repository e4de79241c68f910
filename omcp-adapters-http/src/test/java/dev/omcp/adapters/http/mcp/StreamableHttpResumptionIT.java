package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.api.BodyDeadlines;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A POST whose SSE stream broke before its answer arrived is resumed with a GET and the
 * {@code Last-Event-ID} the client last read (MCP 2025-11-25, "Resumability and Redelivery"): the
 * answer comes on the resumed stream, under its own event id, and the stream ends. Real Javalin on a
 * loopback port, the JDK client, a stub endpoint whose tool call reports progress and then waits.
 */
@Timeout(30)
class StreamableHttpResumptionIT {
    private static final String ANSWER = "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"content\":[]}}";
    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}";

    private final CountDownLatch mayAnswer = new CountDownLatch(1);
    private final CountDownLatch answered = new CountDownLatch(1);
    private final HttpClient http = HttpClient.newHttpClient();
    private StreamableHttpTransport transport;
    private Javalin app;

    @BeforeEach
    void start() {
        WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
            @Override
            public McpReply handle(McpInbound inbound, McpOutbound outbound) {
                outbound.send(Jsonp.object().add("jsonrpc", "2.0").add("method", "notifications/progress")
                        .add("params", Jsonp.object().add("progressToken", "t").add("progress", 1)).build());
                try {
                    mayAnswer.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answered.countDown();
                return new McpReply.Response("tools/call", ANSWER, false, Optional.empty());
            }

            @Override
            public SessionStatus checkSession(String sessionId, Principal principal) {
                return SessionStatus.ACTIVE; // session-a and session-b both exist, and belong to the caller
            }
        };
        transport = new StreamableHttpTransport(endpoint, WebSocketTestServer.ANONYMOUS, new GatewayMetrics(Set.of("tools/call")),
                1024 * 1024, new BodyDeadlines(BodyDeadlines.DEFAULT_GRACE, BodyDeadlines.DEFAULT_MIN_BYTES_PER_SECOND));
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            config.routes.post("/mcp", transport::post);
            config.routes.get("/mcp", transport::get);
        }).start();
    }

    @AfterEach
    void stop() {
        mayAnswer.countDown();
        transport.close();
        app.stop();
    }

    @Test
    void aStreamThatBrokeBeforeTheAnswer_getsItOnTheResumingGet() throws Exception {
        String lastRead = postAndLeaveAfterTheProgress();

        HttpResponse<InputStream> resumed = resume("session-a", lastRead);
        assertThat(resumed.statusCode()).isEqualTo(200);
        mayAnswer.countDown();

        List<String> events = readToTheEnd(resumed);
        String stream = lastRead.substring(0, lastRead.lastIndexOf('-'));
        assertThat(events).as("the answer, under the id it had on the broken stream, then the end")
                .containsExactly("id: " + stream + "-3", "event: message", "data: " + ANSWER);
    }

    @Test
    void anAnswerWrittenBeforeTheClientCameBack_isSentAgain_once() throws Exception {
        String lastRead = postAndLeaveAfterTheProgress();
        mayAnswer.countDown();
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();

        // the gateway cannot know whether the client got the answer it wrote: the client says it did not
        assertThat(readToTheEnd(resume("session-a", lastRead))).contains("data: " + ANSWER);
        assertThat(resume("session-a", lastRead).statusCode()).as("delivered: kept no longer").isEqualTo(405);
    }

    @Test
    void anotherSessionsStream_cannotBeResumed() throws Exception {
        String lastRead = postAndLeaveAfterTheProgress();

        HttpResponse<InputStream> refused = resume("session-b", lastRead);

        assertThat(refused.statusCode()).isEqualTo(405);
        try (InputStream body = refused.body()) {
            assertThat(Jsonp.reader(new String(body.readAllBytes(), StandardCharsets.UTF_8)).readObject()
                    .getJsonObject("error").getString("message")).contains("cannot be resumed").contains("send that request again");
        }
    }

    @Test
    void anEventNumberPastTheLargestLong_isRefusedAsUnknown_andTheStreamCanStillBeResumed() throws Exception {
        String lastRead = postAndLeaveAfterTheProgress();
        String stream = lastRead.substring(0, lastRead.lastIndexOf('-'));

        // 19 digits: read by wrapping around, a negative number "before every event" would replay them all
        HttpResponse<InputStream> refused = resume("session-a", stream + "-9999999999999999999");

        assertThat(refused.statusCode()).isEqualTo(405);
        try (InputStream body = refused.body()) {
            assertThat(new String(body.readAllBytes(), StandardCharsets.UTF_8)).contains("cannot be resumed");
        }
        HttpResponse<InputStream> resumed = resume("session-a", lastRead);
        assertThat(resumed.statusCode()).as("the answer is still kept for the right id").isEqualTo(200);
        mayAnswer.countDown();
        assertThat(readToTheEnd(resumed)).contains("data: " + ANSWER);
    }

    /** POSTs the slow call in session-a, reads up to its progress event, and leaves; the id of that event. */
    private String postAndLeaveAfterTheProgress() throws Exception {
        HttpResponse<InputStream> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", "session-a").POST(HttpRequest.BodyPublishers.ofString(CALL)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(post.statusCode()).isEqualTo(200);
        String lastId = null;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(post.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("id: ")) {
                    lastId = line.substring(4);
                }
                if (line.contains("notifications/progress")) {
                    break;
                }
            }
        }
        assertThat(lastId).as("the progress event's id").isNotNull().startsWith("p");
        return lastId;
    }

    private HttpResponse<InputStream> resume(String sessionId, String lastEventId) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/mcp"))
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", sessionId).header("Last-Event-ID", lastEventId)
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** Every line of the stream that is neither empty nor a comment, until the server ends it. */
    private static List<String> readToTheEnd(HttpResponse<InputStream> response) throws Exception {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isEmpty() && !line.startsWith(":")) {
                    lines.add(line);
                }
            }
        }
        return lines;
    }
}
