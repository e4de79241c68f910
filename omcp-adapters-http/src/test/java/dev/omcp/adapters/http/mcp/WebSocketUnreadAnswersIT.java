package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that sends requests and never reads the answers: without a bound, every answer it
 * does not read waits in the server's memory for as long as it keeps sending. Real Javalin on a
 * loopback port, an endpoint that answers every message with 64 KiB, and a JDK WebSocket client
 * that never asks for a message (so it does not read the socket either).
 */
class WebSocketUnreadAnswersIT {
    private static final int ANSWER_CHARS = 64 * 1024;
    private static final long MAX_UNSENT_BYTES = 1024 * 1024;
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final AtomicInteger handled = new AtomicInteger();
    private WebSocketTransport transport;
    private Javalin app;

    /** Answers every message at once with one large JSON-RPC result. */
    private final McpEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        private final String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"padding\":\"" + "x".repeat(ANSWER_CHARS) + "\"}}";

        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            handled.incrementAndGet();
            return new McpReply.Response("ping", answer, false, Optional.empty());
        }

    };

    @BeforeEach
    void start() {
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("ping"))).maxUnsentBytes(MAX_UNSENT_BYTES).build();
        app = WebSocketTestServer.start(transport);
    }

    @AfterEach
    void stop() {
        transport.close();
        app.stop();
    }

    /** A client that never demands a message: the JDK client then leaves the socket unread. */
    private WebSocket connectWithoutReading() throws Exception {
        WebSocket.Listener deaf = new WebSocket.Listener() {
            @Override
            public void onOpen(WebSocket webSocket) {
                // no request(n): nothing is read, so the server's writes back up
            }

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                return CompletableFuture.completedFuture(null);
            }
        };
        return HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + app.port() + "/mcp/ws"), deaf)
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void aClientThatSendsButNeverReads_isDisconnected_onceItsUnsentAnswersPassTheBound_insteadOfGrowingTheQueue() throws Exception {
        WebSocket socket = connectWithoutReading();
        awaitOpenConnections(1);

        // 1,500 answers of 64 KiB: about 94 MiB, far beyond the bound and any socket buffer
        int sent = 0;
        try {
            for (; sent < 1500 && transport.openConnections() == 1; sent++) {
                socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":" + sent + ",\"method\":\"ping\"}", true).get(10, TimeUnit.SECONDS);
            }
        } catch (java.util.concurrent.ExecutionException e) {
            // the server ended the connection while the client was still sending: what this test waits for
        }

        awaitOpenConnections(0);
        assertThat(transport.openConnections()).as("the socket of a client that does not read is closed").isZero();
        assertThat(handled.get()).as("the server answered until the bound, then stopped").isLessThan(1500);
        socket.abort();
    }

    @Test
    void aClientThatReadsWhatItAsksFor_staysConnected_howeverMuchItIsSentInAll() throws Exception {
        WebSocketClient client = WebSocketClient.connect(app.port(), java.util.Map.of());

        // 100 answers of 64 KiB: over 6 MiB in all, six times the bound on what may wait unread
        for (int i = 0; i < 100; i++) {
            client.send("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}");
            String answer = client.texts.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertThat(answer).as("answer %d", i).isNotNull().hasSizeGreaterThan(ANSWER_CHARS);
        }

        assertThat(transport.openConnections()).isEqualTo(1);
        client.socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        awaitOpenConnections(0);
    }

    private void awaitOpenConnections(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (transport.openConnections() != expected && System.nanoTime() < deadline) {
            Thread.sleep(20); // the server closes on its own threads
        }
        assertThat(transport.openConnections()).as("open connections within %s", BOUND).isEqualTo(expected);
    }
}
