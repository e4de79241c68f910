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
 * A request refused because 32 are already in flight on the socket: its error frame carries the
 * request's own id when the request has a string or integer one, so the client knows which request
 * to send again; null only when no id can be read. Real Javalin on a loopback port and the JDK client.
 */
class WebSocketInFlightRefusalIT {
    // a notification or a client response is handled at once, answered with nothing; pings and notifications/hold stay
    private final WebSocketTestServer.HoldingEndpoint endpoint = new WebSocketTestServer.HoldingEndpoint(
            body -> body.contains("\"method\":\"ping\"") || body.contains("notifications/hold"));
    private final BlockingQueue<String> reachedTheEndpoint = endpoint.reachedTheEndpoint;
    private final GatewayMetrics metrics = new GatewayMetrics(Set.of("ping", "notifications/initialized"));
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        transport = WebSocketTestServer.transport(endpoint, metrics);
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of());
        for (int i = 0; i < 32; i++) {
            client.send("{\"jsonrpc\":\"2.0\",\"id\":" + (1000 + i) + ",\"method\":\"ping\"}");
        }
        assertThat(endpoint.awaitHeld(32)).as("32 requests in flight").isEqualTo(32);
    }

    @AfterEach
    void stop() {
        endpoint.release();
        client.close();
        transport.close();
        app.stop();
    }

    private JsonObject refusalOf(String message) throws Exception {
        client.send(message);
        JsonObject frame = Jsonp.reader(client.nextText()).readObject();
        assertThat(frame.getJsonObject("error").getString("message")).isEqualTo("too many requests in flight on this connection "
                + "(at most 32); wait for answers before sending more (this request did not run)");
        assertThat(frame.getJsonObject("error").getInt("code")).as("refused, as over Streamable HTTP, not malformed").isEqualTo(-32002);
        return frame;
    }

    @Test
    void theRefusalEchoesAStringId() throws Exception {
        JsonObject frame = refusalOf("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"id\":9}},"
                + "\"id\":\"req-33\"}");
        assertThat(frame.get("id")).isEqualTo(Jsonp.value("req-33"));
    }

    @Test
    void theRefusalEchoesAnIntegerId_evenWrittenWithAnExponent() throws Exception {
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":33,\"method\":\"ping\"}").get("id").toString()).isEqualTo("33");
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":1e2,\"method\":\"ping\"}").getJsonNumber("id").intValueExact()).isEqualTo(100);
    }

    @Test
    void theRefusalCarriesNullWhenNoIdCanBeRead() throws Exception {
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}").get("id")).as("fractional").isEqualTo(JsonValue.NULL);
        assertThat(refusalOf("[]").get("id")).as("an empty batch, answered with one error").isEqualTo(JsonValue.NULL);
        assertThat(refusalOf("{\"id\":7,\"method\":\"ping\",").get("id")).as("not JSON").isEqualTo(JsonValue.NULL);
        assertThat(refusalOf("{\"id\":7,\"id\":8,\"method\":\"ping\"}").get("id")).as("two ids").isEqualTo(JsonValue.NULL);
        assertThat(refusalOf("{\"id\":{\"a\":1},\"method\":\"ping\"}").get("id")).as("object id").isEqualTo(JsonValue.NULL);
        assertThat(client.closed).as("the socket stays open").isNotDone();
    }

    @Test
    void aBatchHoldingRequests_getsAnArrayOfOneRefusalPerRequest_noneForItsNotifications() throws Exception {
        // JSON-RPC 2.0 section 6: one response per request of the batch, in an array; none for a notification
        client.send("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"s-8\",\"method\":\"ping\"}]");
        JsonArray answer = Jsonp.reader(client.nextText()).readArray();
        assertThat(answer.stream().map(element -> element.asJsonObject().get("id").toString()))
                .containsExactly("7", "null", "\"s-8\"");
        for (JsonObject refusal : answer.getValuesAs(JsonObject.class)) {
            assertThat(refusal.getJsonObject("error").getInt("code")).isEqualTo(-32002);
            assertThat(refusal.getJsonObject("error").getString("message")).startsWith("too many requests in flight on this connection");
        }
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"ping\",outcome=\"refused\",transport=\"websocket\"} 3.0");
        ScrapedMetrics.awaitLine(metrics,
                "omcp_mcp_requests_total{method=\"notifications/initialized\",outcome=\"refused\",transport=\"websocket\"} 1.0");

        client.send("[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]");
        assertThat(Jsonp.reader(client.nextText()).readArray().getJsonObject(0).get("id").toString())
                .as("a batch of one request is answered with an array of one").isEqualTo("9");
        assertThat(reachedTheEndpoint).as("the notification in the refused batch did not run").isEmpty();
        assertThat(client.closed).as("the socket stays open").isNotDone();
    }

    @Test
    void aCancellationAndAClientResponse_stillReachTheEndpointWhenTheRequestsFillTheBound() throws Exception {
        // when 32 requests hang is when a client needs notifications/cancelled most, and a tool that
        // waits for the client's answer (sampling, elicitation) holds a place until that answer arrives
        String cancellation = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1000}}";
        String clientResponse = "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{\"action\":\"accept\"}}";
        client.send(cancellation);
        client.send(clientResponse);

        assertThat(Set.of(nextReached(), nextReached())).containsExactlyInAnyOrder(cancellation, clientResponse);
        // a request is still refused, and it is the first frame: neither message above was answered
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":34,\"method\":\"ping\"}").get("id").toString()).isEqualTo("34");
    }

    @Test
    void aRequestRefusedOverTheBound_isCountedAsRefusedUnderItsMethod_asOnStreamableHttp() throws Exception {
        refusalOf("{\"jsonrpc\":\"2.0\",\"id\":33,\"method\":\"ping\"}");
        refusalOf("{\"jsonrpc\":\"2.0\",\"id\":34,\"method\":\"ping\"}");
        refusalOf("{\"jsonrpc\":\"2.0\",\"id\":35,\"method\":\"made/up\"}");
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"ping\",outcome=\"refused\",transport=\"websocket\"} 2.0");
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"(unknown)\",outcome=\"refused\",transport=\"websocket\"} 1.0");
    }

    @Test
    void aBatchOfOnlyNotificationsAndResponses_takesTheirBound_andIsNeverAnswered() throws Exception {
        // JSON-RPC 2.0: a batch holding only notifications gets no response at all
        String batch = "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1000}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}]";
        client.send(batch);
        assertThat(nextReached()).isEqualTo(batch);
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":36,\"method\":\"ping\"}").get("id").toString())
                .as("the first frame after the batch answers the request sent after it").isEqualTo("36");
    }

    @Test
    void notificationsHaveABoundOfTheirOwn_pastWhichTheyAreDroppedAndCounted_neverAnswered() throws Exception {
        for (int i = 0; i < 32; i++) {
            client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/hold\"}");
        }
        assertThat(endpoint.awaitHeld(64)).as("32 requests and 32 notifications in flight").isEqualTo(64);

        // JSON-RPC: a notification is never answered, nor is a response; an error frame with a null
        // id would reach the client as the answer to nothing it sent
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/hold\"}");
        client.send("{\"jsonrpc\":\"2.0\",\"id\":\"omcp-2\",\"result\":{}}");
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        // a batch of only notifications and responses: each of its messages is dropped, under its own method
        client.send("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},{\"jsonrpc\":\"2.0\",\"id\":\"omcp-3\","
                + "\"result\":{}},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/made-up-by-the-client\"}]");
        assertThat(refusalOf("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\"}").get("id").toString())
                .as("the first frame after the dropped messages answers the request sent after them").isEqualTo("77");
        assertThat(reachedTheEndpoint).as("the dropped messages were not handled").isEmpty();
        // counted under the method an operator can act on; a method the gateway does not handle is (unknown), a response (none)
        assertThat(ScrapedMetrics.of(metrics))
                .contains("omcp_mcp_requests_total{method=\"notifications/initialized\",outcome=\"dropped\",transport=\"websocket\"} 2.0")
                .contains("omcp_mcp_requests_total{method=\"(unknown)\",outcome=\"dropped\",transport=\"websocket\"} 2.0")
                .contains("omcp_mcp_requests_total{method=\"(none)\",outcome=\"dropped\",transport=\"websocket\"} 2.0")
                .doesNotContain("made-up-by-the-client");
        assertThat(client.closed).as("the socket stays open").isNotDone();
    }

    private String nextReached() throws InterruptedException {
        String body = reachedTheEndpoint.poll(10, TimeUnit.SECONDS);
        assertThat(body).as("a message reached the endpoint within 10 s").isNotNull();
        return body;
    }
}
