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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that sends {@code initialize} and closes its socket before the answer: the session
 * opened after the close must end too, or it would hold a place of the credential's session limit
 * until it expires (a client repeating this would fill that limit with sessions nobody can use).
 * Real Javalin on a loopback port and the JDK WebSocket client.
 */
class WebSocketClosedDuringInitializeIT {
    private static final String SESSION = "session-opened-after-the-close";

    private final CountDownLatch initializeMayAnswer = new CountDownLatch(1);
    private final List<String> ended = new CopyOnWriteArrayList<>();
    private final AtomicInteger attached = new AtomicInteger();
    private WebSocketTransport transport;
    private Javalin app;

    /** Opens a session on initialize, but only once the test lets it answer. */
    private final McpEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            try {
                initializeMayAnswer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.of(SESSION));
        }

        @Override
        public SessionStatus endSession(String sessionId, Principal principal) {
            ended.add(sessionId);
            return SessionStatus.ACTIVE;
        }

        @Override
        public AutoCloseable attachStream(String sessionId, McpOutbound stream) {
            attached.incrementAndGet();
            return attached::decrementAndGet;
        }
    };

    @BeforeEach
    void start() {
        transport = WebSocketTestServer.transport(endpoint, new GatewayMetrics(Set.of("initialize")));
        app = WebSocketTestServer.start(transport);
    }

    @AfterEach
    void stop() {
        initializeMayAnswer.countDown();
        transport.close();
        app.stop();
    }

    @Test
    void aSessionThatInitializeOpensAfterTheSocketClosed_isEndedAtOnce_andHasNoStreamLeftAttached() throws Exception {
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + app.port() + "/mcp/ws"), new WebSocket.Listener() { })
                .get(10, TimeUnit.SECONDS);
        awaitOpenConnections(1);
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}", true).get(10, TimeUnit.SECONDS);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(10, TimeUnit.SECONDS);
        awaitOpenConnections(0);

        initializeMayAnswer.countDown();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ended.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ended).as("the session opened after the close is ended, once").containsExactly(SESSION);
        assertThat(attached).as("no stream stays attached to it").hasValue(0);
    }

    private void awaitOpenConnections(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (transport.openConnections() != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(transport.openConnections()).as("open connections").isEqualTo(expected);
    }
}
