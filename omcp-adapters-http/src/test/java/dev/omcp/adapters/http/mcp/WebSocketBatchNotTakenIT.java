package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A batch the transport refuses itself (the shutdown began, or 32 requests are in flight) in a
 * session whose revision takes no batches (MCP 2025-06-18 removed them) gets the answer the
 * dispatcher gives every batch of that session, {@code -32600} "batches not supported", not an
 * array of {@code -32002} asking the client to send each request again: sent again, the batch would
 * be refused all the same. Real Javalin on a loopback port and the JDK client.
 */
class WebSocketBatchNotTakenIT {
    private static final String SESSION = "session-of-2025-06-18";
    private static final String BATCH = "[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"},"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}]";
    /** What the dispatcher answers a batch in a session of MCP 2025-06-18. */
    private static final McpReply.Refused NOT_TAKEN = new McpReply.Refused("", Refusal.BATCH_NOT_SUPPORTED, Jsonp.object()
            .add("jsonrpc", "2.0")
            .add("id", JsonValue.NULL)
            .add("error", Jsonp.object().add("code", -32600).add("message", "Batch requests are not supported in MCP 2025-06-18"))
            .build());

    private final WebSocketTestServer.HoldingEndpoint holding =
            new WebSocketTestServer.HoldingEndpoint(body -> body.contains("\"method\":\"ping\""));
    /** The sessions the transport asked about. */
    private final List<Optional<String>> askedAbout = new CopyOnWriteArrayList<>();
    private final GatewayMetrics metrics = new GatewayMetrics(Set.of("ping", "tools/call"));
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    /** Opens {@link #SESSION} on initialize, refuses its batches as the dispatcher would, and holds pings. */
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            if (inbound.body().contains("\"method\":\"initialize\"")) {
                return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}", false, Optional.of(SESSION));
            }
            return holding.handle(inbound, outbound);
        }

        @Override
        public Optional<McpReply.Refused> batchRefusal(Optional<String> sessionId, Principal principal) {
            askedAbout.add(sessionId);
            return Optional.of(NOT_TAKEN);
        }
    };

    @BeforeEach
    void start() throws Exception {
        transport = WebSocketTestServer.transport(endpoint, metrics);
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of());
        client.send("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}");
        assertThat(Jsonp.reader(client.nextText()).readObject().containsKey("result")).as("the session is open").isTrue();
    }

    @AfterEach
    void stop() {
        holding.release();
        client.close();
        transport.close();
        app.stop();
    }

    @Test
    void aBatchSentDuringTheDrain_getsTheSessionsBatchRefusal_notOneRefusalPerRequest() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(holding.awaitHeld(1)).as("a request in flight").isEqualTo(1);
        transport.drain();

        assertTheSessionsBatchRefusal();
        // counted once, as the dispatcher's refusal of a batch is: under no method
        ScrapedMetrics.awaitLine(metrics, "omcp_mcp_requests_total{method=\"(none)\",outcome=\"refused\",transport=\"websocket\"} 1.0");
        assertThat(ScrapedMetrics.of(metrics)).doesNotContain("method=\"tools/call\",outcome=\"refused\"");
        assertThat(refusalCode("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}")).as("a lone request is still asked to come again")
                .isEqualTo(-32002);
    }

    @Test
    void aBatchOverTheBoundOfRequestsInFlight_getsTheSessionsBatchRefusal_notOneRefusalPerRequest() throws Exception {
        for (int i = 0; i < 32; i++) {
            client.send("{\"jsonrpc\":\"2.0\",\"id\":" + (1000 + i) + ",\"method\":\"ping\"}");
        }
        assertThat(holding.awaitHeld(32)).as("32 requests in flight").isEqualTo(32);

        assertTheSessionsBatchRefusal();
        assertThat(refusalCode("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}")).as("a lone request is still asked to come again")
                .isEqualTo(-32002);
    }

    private void assertTheSessionsBatchRefusal() throws Exception {
        client.send(BATCH);
        String frame = client.nextText();
        assertThat(frame).as("one error, not an array of them").startsWith("{");
        assertThat(Jsonp.reader(frame).readObject()).isEqualTo(NOT_TAKEN.body());
        assertThat(askedAbout).as("asked about the socket's session").contains(Optional.of(SESSION));
        assertThat(holding.reachedTheEndpoint).as("nothing in the batch ran").isEmpty();
    }

    private int refusalCode(String request) throws Exception {
        client.send(request);
        JsonObject frame = Jsonp.reader(client.nextText()).readObject();
        return frame.getJsonObject("error").getInt("code");
    }
}
