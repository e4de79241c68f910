package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A socket that closes while a second {@code initialize} on it replaces its session: the close ends
 * the new session (and, as the dispatcher does, drops the streams attached to it) before the
 * initialize has attached the socket to that session. The attachment made after that must be
 * undone, or the ended session keeps a stream, holding the closed socket, for as long as the gateway
 * runs: a client repeating this would grow memory without bound. Real Javalin on a loopback port.
 */
class WebSocketClosedDuringReinitializeIT {
    private final CountDownLatch replacingTheFirst = new CountDownLatch(1);
    private final CountDownLatch secondEnded = new CountDownLatch(1);
    /** The sessions a stream is attached to now, as the dispatcher's session streams hold them. */
    private final Set<String> attachedNow = ConcurrentHashMap.newKeySet();
    private final GatewayMetrics metrics = new GatewayMetrics(Set.of("initialize"));
    private WebSocketTransport transport;
    private Javalin app;

    /** Opens session s1, then s2; ending s1 waits until the socket's close has ended s2. */
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            String session = inbound.sessionId().isEmpty() ? "s1" : "s2";
            return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.of(session));
        }

        @Override
        public SessionStatus endSession(String sessionId, Principal principal) {
            if (sessionId.equals("s1")) {
                replacingTheFirst.countDown();
                try {
                    assertThat(secondEnded.await(10, TimeUnit.SECONDS)).as("the close ended s2").isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            // as the dispatcher's SessionStreams.forget: an ended session keeps no stream
            attachedNow.remove(sessionId);
            if (sessionId.equals("s2")) {
                secondEnded.countDown();
            }
            return SessionStatus.ACTIVE;
        }

        @Override
        public AutoCloseable attachStream(String sessionId, McpOutbound stream) {
            attachedNow.add(sessionId);
            return () -> attachedNow.remove(sessionId);
        }
    };

    @BeforeEach
    void start() {
        transport = WebSocketTestServer.transport(endpoint, metrics);
        app = WebSocketTestServer.start(transport);
    }

    @AfterEach
    void stop() {
        secondEnded.countDown();
        transport.close();
        app.stop();
    }

    @Test
    void aSessionEndedByTheCloseWhileInitializeReplacedTheOld_keepsNoStreamAttached() throws Exception {
        WebSocketClient client = WebSocketClient.connect(app.port(), Map.of());
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        client.nextText();
        assertThat(attachedNow).containsExactly("s1");

        client.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{}}");
        assertThat(replacingTheFirst.await(10, TimeUnit.SECONDS)).as("the second initialize ends s1").isTrue();
        client.close();

        awaitAnsweredInitializes(2);
        assertThat(attachedNow).as("no stream is left attached to a session the close ended").isEmpty();
    }

    /** Waits until {@code count} initialize requests were dealt with: the transport counts each once it is done with it. */
    private void awaitAnsweredInitializes(int count) throws Exception {
        ScrapedMetrics.awaitLine(metrics,
                "omcp_mcp_requests_total{method=\"initialize\",outcome=\"ok\",transport=\"websocket\"} " + count + ".0");
    }
}
