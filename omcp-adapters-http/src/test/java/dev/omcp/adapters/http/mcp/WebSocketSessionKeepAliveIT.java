package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A socket that sends nothing for longer than the MCP session idle expiry: the connection is the
 * session, so while the socket is open its session must not expire under it, and a session gone
 * all the same must not leave the socket open with every later request refused. Real Javalin on
 * loopback, a 100 ms ping interval standing in for 30 s, and an endpoint that records the session
 * checks (which is what refreshes a session's idle timer).
 */
class WebSocketSessionKeepAliveIT {
    private static final String SESSION = "s-1";
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final List<String> checked = new CopyOnWriteArrayList<>();
    private final AtomicReference<McpEndpoint.SessionStatus> status = new AtomicReference<>(McpEndpoint.SessionStatus.ACTIVE);
    private WebSocketTransport transport;
    private Javalin app;

    /** Opens session {@value #SESSION} on any message, as {@code initialize} does. */
    private final McpEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.of(SESSION));
        }

        @Override
        public SessionStatus checkSession(String sessionId, Principal principal) {
            checked.add(sessionId);
            return status.get();
        }

    };

    @BeforeEach
    void start() {
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("initialize")))
                .pingInterval(Duration.ofMillis(100))
                .pongTimeout(Duration.ofSeconds(60))
                .build();
        app = WebSocketTestServer.start(transport);
    }

    @AfterEach
    void stop() {
        transport.close();
        app.stop();
    }

    @Test
    void anOpenSocketThatSendsNothing_refreshesItsSessionEveryPingRound_soTheSessionDoesNotExpireUnderIt() throws Exception {
        CompletableFuture<String> closed = new CompletableFuture<>();
        WebSocket socket = connect(closed);
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}", true).get(10, TimeUnit.SECONDS);

        long deadline = System.nanoTime() + BOUND.toNanos();
        while (checked.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(checked).as("the session refreshed by the keep-alive of its idle socket").hasSizeGreaterThanOrEqualTo(3)
                .containsOnly(SESSION);
        assertThat(closed).as("a socket whose session lives stays open").isNotDone();
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    @Test
    void aSocketWhoseSessionIsGone_isClosedSayingSo_insteadOfStayingOpenWithEveryRequestRefused() throws Exception {
        CompletableFuture<String> closed = new CompletableFuture<>();
        WebSocket socket = connect(closed);
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}", true).get(10, TimeUnit.SECONDS);
        status.set(McpEndpoint.SessionStatus.NOT_FOUND);

        String close = closed.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(close).isEqualTo(WebSocketTransport.GOING_AWAY
                + " the MCP session of this connection no longer exists; reconnect and initialize again");
        socket.abort();
    }

    @Test
    void aSocketWithoutSession_isNotChecked_andStaysOpen() throws Exception {
        CompletableFuture<String> closed = new CompletableFuture<>();
        WebSocket socket = connect(closed);
        Thread.sleep(1000); // ten ping rounds
        assertThat(checked).as("no initialize, no session to refresh").isEmpty();
        assertThat(closed).isNotDone();
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    private WebSocket connect(CompletableFuture<String> closed) throws Exception {
        WebSocket.Listener listener = new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode + " " + reason);
                return null;
            }
        };
        return HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + app.port() + "/mcp/ws"), listener)
                .get(10, TimeUnit.SECONDS);
    }
}
