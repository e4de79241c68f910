package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
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
    private final WebSocketTestServer.HoldingEndpoint endpoint =
            new WebSocketTestServer.HoldingEndpoint(body -> body.contains("\"method\":\"ping\""));
    private final BlockingQueue<String> reachedTheEndpoint = endpoint.reachedTheEndpoint;
    private final GatewayMetrics metrics = new GatewayMetrics(Set.of("ping", "tools/call", "notifications/cancelled"));
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        transport = WebSocketTestServer.transport(endpoint, metrics);
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of());
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(endpoint.awaitHeld(1)).as("a request in flight").isEqualTo(1);
        transport.drain();
    }

    @AfterEach
    void stop() {
        endpoint.release();
        client.close();
        transport.close();
        app.stop();
    }

    @Test
    void aRequestSentDuringTheDrain_isRefusedAndCountedAsRefused() throws Exception {
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").get("id").toString()).isEqualTo("2");
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"ping\",outcome=\"refused\",transport=\"websocket\"} 1.0");

        endpoint.release();
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

    @Test
    void aBatchMixingRequestsAndNotificationsSentDuringTheDrain_getsAnArrayOfOneRefusalPerRequest_eachCountedUnderItsMethod()
            throws Exception {
        // JSON-RPC 2.0 section 6: a batch is answered with an array holding one response per request,
        // none for a notification or a response; an element whose id cannot be read gets one with a null id
        client.send("[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}]");
        JsonArray answer = Jsonp.reader(client.nextText()).readArray();
        assertThat(answer.stream().map(element -> element.asJsonObject().get("id").toString())).containsExactly("\"a\"", "2", "null");
        for (JsonObject refusal : answer.getValuesAs(JsonObject.class)) {
            assertThat(refusal.getString("jsonrpc")).isEqualTo("2.0");
            assertThat(refusal.getJsonObject("error").getInt("code")).isEqualTo(-32002);
            assertThat(refusal.getJsonObject("error").getString("message")).isEqualTo(WebSocketTransport.SHUTTING_DOWN);
        }
        // nothing in the batch ran, its notification included: each message is counted as refused
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"ping\",outcome=\"refused\",transport=\"websocket\"} 2.0");
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"tools/call\",outcome=\"refused\",transport=\"websocket\"} 1.0");
        ScrapedMetrics.awaitLine(metrics,
                "omcp_mcp_requests_total{method=\"notifications/cancelled\",outcome=\"refused\",transport=\"websocket\"} 1.0");
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"(none)\",outcome=\"refused\",transport=\"websocket\"} 1.0");
        assertThat(reachedTheEndpoint).as("the notification in the batch did not run").isEmpty();
    }

    @Test
    void anEmptyBatchSentDuringTheDrain_getsOneRefusalWithANullId_asJsonRpcAnswersAnEmptyArray() throws Exception {
        assertThat(refusalOf("[]").get("id")).isEqualTo(JsonValue.NULL);
    }

    private JsonObject refusalOf(String message) throws Exception {
        client.send(message);
        JsonObject frame = Jsonp.reader(client.nextText()).readObject();
        assertThat(frame.getJsonObject("error").getInt("code")).isEqualTo(-32002);
        assertThat(frame.getJsonObject("error").getString("message")).isEqualTo(WebSocketTransport.SHUTTING_DOWN);
        return frame;
    }
}
