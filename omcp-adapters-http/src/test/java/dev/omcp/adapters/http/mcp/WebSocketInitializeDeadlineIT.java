package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A socket that never sends {@code initialize} is closed once the initialize deadline passes,
 * although keep-alive pings are answered; one that opened its session stays. The deadline is
 * short here (the default is 30 s), on a real Javalin at a loopback port with the JDK client.
 */
class WebSocketInitializeDeadlineIT {
    private static final Duration DEADLINE = Duration.ofMillis(300);

    private final McpEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.of("s-1"));
        }

        @Override
        public SessionStatus checkSession(String sessionId, dev.omcp.ports.identity.Principal principal) {
            return SessionStatus.ACTIVE;
        }
    };
    private WebSocketTransport transport;
    private Javalin app;

    @BeforeEach
    void start() {
        // pings every 100 ms (the JDK client answers them), so the socket is never silent
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("initialize")))
                .pingInterval(Duration.ofMillis(100))
                .pongTimeout(Duration.ofSeconds(60))
                .initializeDeadline(DEADLINE)
                .build();
        app = WebSocketTestServer.start(transport);
    }

    @AfterEach
    void stop() {
        transport.close();
        app.stop();
    }

    @Test
    void aSocketThatNeverSendsInitialize_isClosedWith1008AfterTheDeadline_andLeavesNoOpenConnection() throws Exception {
        long before = System.nanoTime();
        WebSocketClient client = WebSocketClient.connect(app.port(), Map.of());
        WebSocketClient.Close close = client.awaitClose();
        assertThat(close.code()).as("1008: policy violation").isEqualTo(1008);
        assertThat(close.reason()).isEqualTo("initialize not sent within 300 ms of connecting; send initialize first, then reconnect");
        assertThat(Duration.ofNanos(System.nanoTime() - before)).as("not before the deadline").isGreaterThanOrEqualTo(DEADLINE);
        awaitOpenConnections(0);
    }

    @Test
    void aSocketThatInitializedInTime_staysOpenPastTheDeadline() throws Exception {
        WebSocketClient client = WebSocketClient.connect(app.port(), Map.of());
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(client.nextText()).contains("\"result\"");
        Thread.sleep(DEADLINE.multipliedBy(5).toMillis());
        assertThat(client.closed).as("still open well past the deadline").isNotDone();
        assertThat(transport.openConnections()).isEqualTo(1);
        client.close();
    }

    private void awaitOpenConnections(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (transport.openConnections() != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(transport.openConnections()).as("open connections").isEqualTo(expected);
    }
}
