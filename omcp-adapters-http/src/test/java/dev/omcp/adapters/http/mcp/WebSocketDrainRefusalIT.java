package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Once the shutdown began, a socket with a request still running stays open until it is answered;
 * a new request on it is refused with {@code -32002} and counted in {@code omcp_mcp_requests_total}
 * as refused under its method, as a refusal on Streamable HTTP is, while notifications (alone or a
 * batch of only them) still run and are never answered. Real Javalin on a loopback port and the JDK client.
 */
class WebSocketDrainRefusalIT {
    private final CountDownLatch mayAnswer = new CountDownLatch(1);
    private final CountDownLatch running = new CountDownLatch(1);
    private final BlockingQueue<String> reachedTheEndpoint = new LinkedBlockingQueue<>();
    private final McpEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            if (!inbound.body().contains("\"method\":\"ping\"")) {
                reachedTheEndpoint.add(inbound.body());
                return new McpReply.Accepted("");
            }
            running.countDown();
            try {
                mayAnswer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.empty());
        }
    };
    private final GatewayMetrics metrics = new GatewayMetrics(Set.of("ping"));
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        transport = new WebSocketTransport(endpoint, WebSocketTestServer.ANONYMOUS, metrics, 1024 * 1024,
                Duration.ofSeconds(30), Duration.ofSeconds(90), Clock.systemUTC());
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of());
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(running.await(10, TimeUnit.SECONDS)).as("a request in flight").isTrue();
        transport.drain();
    }

    @AfterEach
    void stop() {
        mayAnswer.countDown();
        client.close();
        transport.close();
        app.stop();
    }

    @Test
    void aRequestSentDuringTheDrain_isRefusedAndCountedAsRefused() throws Exception {
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").get("id").toString()).isEqualTo("2");
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"ping\",outcome=\"refused\",transport=\"websocket\"} 1.0");

        mayAnswer.countDown();
        assertThat(Jsonp.reader(client.nextText()).readObject().get("id").toString()).as("the request in flight is answered")
                .isEqualTo("1");
        assertThat(client.closed.get(10, TimeUnit.SECONDS).code()).as("then the socket closes").isEqualTo(1001);
    }

    @Test
    void aBatchOfOnlyNotificationsSentDuringTheDrain_stillRuns_andIsNeverAnswered() throws Exception {
        String batch = "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}]";
        client.send(batch);
        assertThat(reachedTheEndpoint.poll(10, TimeUnit.SECONDS)).isEqualTo(batch);
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}").get("id").toString())
                .as("the first frame after the batch answers the request sent after it").isEqualTo("3");
    }

    private JsonObject refusalOf(String message) throws Exception {
        client.send(message);
        JsonObject frame = Jsonp.reader(client.nextText()).readObject();
        assertThat(frame.getJsonObject("error").getInt("code")).isEqualTo(-32002);
        assertThat(frame.getJsonObject("error").getString("message")).isEqualTo(WebSocketTransport.SHUTTING_DOWN);
        return frame;
    }
}
