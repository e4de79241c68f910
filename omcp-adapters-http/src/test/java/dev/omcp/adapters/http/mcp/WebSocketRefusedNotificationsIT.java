package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * JSON-RPC 2.0 answers no notification and no response, so a WebSocket sends no frame for one the
 * endpoint refused (no session yet, a policy, a limit): there is no HTTP status to carry the refusal
 * as on Streamable HTTP, and an error frame with a null id would reach the client as the answer to
 * nothing it sent. A message that is no valid JSON-RPC message still gets its error (JSON-RPC asks for
 * one, with a null id), as does every request. Real Javalin on a loopback port and the JDK client.
 */
class WebSocketRefusedNotificationsIT {
    private static final String NO_SESSION = "Invalid Request: this WebSocket has no MCP session yet; send initialize on it first";

    /** Refuses every message as the dispatcher refuses one sent before initialize; a malformed one as malformed. */
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            if (inbound.body().contains("\"params\":5")) {
                return refused(Refusal.MALFORMED, JsonValue.NULL, -32602, "Invalid params: \"params\" must be an object");
            }
            if (inbound.body().startsWith("[")) {
                // as the dispatcher refuses a batch on a socket without a 2025-03-26 session
                return refused(Refusal.BATCH_NOT_SUPPORTED, JsonValue.NULL, -32600, "Batch requests are not supported");
            }
            JsonObject message = Jsonp.reader(inbound.body()).readObject();
            JsonValue id = message.containsKey("method") && message.containsKey("id") ? message.get("id") : JsonValue.NULL;
            return refused(inbound.body().contains("forbidden") ? Refusal.FORBIDDEN : Refusal.SESSION_REQUIRED, id, -32600, NO_SESSION);
        }
    };
    private final GatewayMetrics metrics = new GatewayMetrics(Set.of("ping"));
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    private static McpReply.Refused refused(Refusal refusal, JsonValue id, int code, String message) {
        JsonObject body = Jsonp.object().add("jsonrpc", "2.0").add("id", id)
                .add("error", Jsonp.object().add("code", code).add("message", message)).build();
        return new McpReply.Refused("", refusal, body);
    }

    @BeforeEach
    void start() throws Exception {
        transport = WebSocketTestServer.transport(endpoint, metrics);
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of());
    }

    @AfterEach
    void stop() {
        client.close();
        transport.close();
        app.stop();
    }

    @Test
    void aRefusedNotificationOrClientResponse_getsNoFrame_whileARefusedRequestStillGetsItsError() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1,\"reason\":\"forbidden\"}}");
        client.send("{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}");
        client.send("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"could not read your request\"}}");
        awaitRefused(4);

        client.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
        JsonObject first = Jsonp.reader(client.nextText()).readObject();
        assertThat(first.get("id").toString()).as("the first frame answers the request, not one of the four before it").isEqualTo("7");
        assertThat(first.getJsonObject("error").getString("message")).startsWith(NO_SESSION);
        assertThat(client.closed).as("the socket stays open").isNotDone();
    }

    @Test
    void aRefusedBatchOfOnlyNotificationsAndResponses_getsNoFrame_whileARefusedBatchWithARequestStillGetsItsError() throws Exception {
        // JSON-RPC 2.0: a batch holding only notifications (and responses) gets no response at all
        client.send("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}]");
        client.send("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}]");
        awaitRefused(2);

        client.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
        assertThat(Jsonp.reader(client.nextText()).readObject().get("id").toString())
                .as("the first frame answers the request, not one of the batches before it").isEqualTo("7");
        client.send("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}]");
        assertThat(Jsonp.reader(client.nextText()).readObject().getJsonObject("error").getString("message"))
                .as("a batch holding a request gets its refusal").isEqualTo("Batch requests are not supported");
        assertThat(client.closed).as("the socket stays open").isNotDone();
    }

    @Test
    void aMessageThatIsNoValidJsonRpcMessage_stillGetsItsErrorWithANullId() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":5}");
        JsonObject frame = Jsonp.reader(client.nextText()).readObject();
        assertThat(frame.get("id")).isEqualTo(JsonValue.NULL);
        assertThat(frame.getJsonObject("error").getInt("code")).isEqualTo(-32602);
    }

    /** Waits until {@code count} refusals were counted: the transport counts one after it has dealt with it. */
    private void awaitRefused(int count) throws Exception {
        ScrapedMetrics.awaitLine(metrics,
                "omcp_mcp_requests_total{method=\"(none)\",outcome=\"refused\",transport=\"websocket\"} " + count + ".0");
    }
}
