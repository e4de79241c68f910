package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An initialize whose new session cannot be attached to the socket (an embedder's endpoint throws from
 * {@code attachStream}) is answered with JSON-RPC -32603: the client was told the initialize failed, so
 * the socket must not go on holding that session, and the session must end, or it would hold a place of
 * the credential's session limit until it expired. The socket stays usable: a new initialize may succeed.
 * Real Javalin on loopback and the JDK client.
 */
class WebSocketAttachFailureIT {
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicBoolean attachFails = new AtomicBoolean(true);
    private final List<String> ended = new CopyOnWriteArrayList<>();
    /** The session each ping arrived with; empty for a ping on a socket that holds none. */
    private final BlockingQueue<Optional<String>> pingSessions = new LinkedBlockingQueue<>();
    /** Opens session s-1, s-2, ... on each initialize; the first attach throws. */
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            if (inbound.body().contains("\"initialize\"")) {
                String id = "s-" + opened.incrementAndGet();
                return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.of(id));
            }
            pingSessions.add(inbound.sessionId());
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}", false, Optional.empty());
        }

        @Override
        public SessionStatus endSession(String sessionId, Principal principal) {
            ended.add(sessionId);
            return SessionStatus.ACTIVE;
        }

        @Override
        public AutoCloseable attachStream(String sessionId, McpOutbound stream) {
            if (attachFails.getAndSet(false)) {
                throw new IllegalStateException("the embedder's stream registry is full");
            }
            return () -> { };
        }
    };
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    /** Serves the endpoint with {@code initializeDeadline} and connects a client. */
    private void serve(Duration initializeDeadline) throws Exception {
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("ping", "initialize")))
                .initializeDeadline(initializeDeadline)
                .build();
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of());
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (app != null) {
            app.stop();
        }
    }

    @Test
    void anInitializeWhoseSessionCannotBeAttached_isAnsweredWithAnInternalError_endsThatSession_andLeavesTheSocketWithout()
            throws Exception {
        serve(WebSocketTransport.DEFAULT_INITIALIZE_DEADLINE);
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");

        JsonObject answer = Jsonp.reader(client.nextText()).readObject();
        assertThat(answer.getInt("id")).isEqualTo(1);
        assertThat(answer.getJsonObject("error").getInt("code")).isEqualTo(-32603);
        assertThat(ended).as("the session the client was told did not open is ended").containsExactly("s-1");

        assertThat(pingWithItsSession()).as("the socket holds no session").isEmpty();
        assertThat(client.closed.isDone()).as("the socket stays open").isFalse();
    }

    @Test
    void aNewInitializeAfterAFailedAttach_opensASessionTheSocketKeeps() throws Exception {
        serve(WebSocketTransport.DEFAULT_INITIALIZE_DEADLINE);
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(client.nextText()).contains("-32603");

        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(Jsonp.reader(client.nextText()).readObject().containsKey("result")).isTrue();

        assertThat(pingWithItsSession()).contains("s-2");
        assertThat(ended).as("only the session of the failed attach ended").containsExactly("s-1");
    }

    @Test
    void aSocketLeftWithoutASession_isClosedAtTheInitializeDeadline_asOneThatNeverSentInitialize() throws Exception {
        Duration deadline = Duration.ofMillis(500);
        serve(deadline);
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(client.nextText()).contains("-32603");

        WebSocketClient.Close close = client.awaitClose();
        assertThat(close.code()).isEqualTo(WebSocketTransport.POLICY_VIOLATION);
        assertThat(close.reason()).isEqualTo(WebSocketTransport.noInitializeReason(deadline));
    }

    /** Sends a ping and returns the session the endpoint saw it arrive with. */
    private Optional<String> pingWithItsSession() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
        Optional<String> session = pingSessions.poll(10, TimeUnit.SECONDS);
        assertThat(session).as("the ping reached the endpoint").isNotNull();
        return session;
    }
}
