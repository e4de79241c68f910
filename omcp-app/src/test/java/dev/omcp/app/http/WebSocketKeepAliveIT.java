package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RawWebSocket;
import dev.omcp.app.support.RawWebSocket.Frame;
import dev.omcp.core.gateway.Gateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket keep-alive on a real server (issue 2 item 7: "ping every 30 s, close 1001 after 90 s
 * without pong"), with the same rule at short times so the test runs in seconds: ping every 250 ms,
 * close after 2 s of silence. The pong timeout spans eight pings, so a live client that is slowed
 * by a loaded machine still answers in time; waits for what must happen are bounded generously.
 */
class WebSocketKeepAliveIT {
    private static final Duration PING = Duration.ofMillis(250);
    private static final Duration PONG_TIMEOUT = Duration.ofSeconds(2);
    /** Far beyond the deadline: how long a test waits for something that must happen. */
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"keepalive\",\"version\":\"1\"}}}";

    private static GatewayHttpServer server;

    @BeforeAll
    static void start() {
        Gateway gateway = Gateway.builder().version("test").build();
        HttpServerSettings settings = new HttpServerSettings("127.0.0.1", 0, List.of(), List.of(),
                HttpServerSettings.DEFAULT_MAX_BODY_BYTES, PING, PONG_TIMEOUT, Duration.ofSeconds(5));
        server = GatewayHttpServer.builder()
                .settings(settings)
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static RawWebSocket connect() throws IOException {
        return RawWebSocket.connect(server.port(), "/mcp/ws");
    }

    @Test
    void aPeerThatNeverAnswersPings_isPingedThenClosedWith1001OnceThePongTimeoutPasses() throws Exception {
        long before = System.nanoTime();
        try (RawWebSocket socket = connect()) {
            int pings = 0;
            Frame close = null;
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (close == null && System.nanoTime() < deadline) {
                Optional<Frame> frame = socket.read(Duration.ofNanos(deadline - System.nanoTime()));
                if (frame.isPresent() && frame.get().opcode() == RawWebSocket.PING) {
                    pings++;
                } else if (frame.isPresent() && frame.get().opcode() == RawWebSocket.CLOSE) {
                    close = frame.get();
                }
            }
            Duration open = Duration.ofNanos(System.nanoTime() - before);
            assertThat(close).as("a close frame within %s", BOUND).isNotNull();
            assertThat(close.closeCode()).as("1001: going away").isEqualTo(1001);
            assertThat(close.closeReason()).contains("no pong").contains("2 s").contains("reconnect");
            assertThat(pings).as("the server pinged before giving up").isGreaterThanOrEqualTo(2);
            assertThat(open).as("never closed before the pong timeout").isGreaterThanOrEqualTo(PONG_TIMEOUT);
        }
    }

    @Test
    void aPeerThatIgnoresTheCloseFrameToo_isDisconnected_andLeavesNoOpenConnectionBehind() throws Exception {
        try (RawWebSocket socket = connect()) {
            awaitOpenWebSockets(n -> n >= 1);
            Frame close = readUntil(socket, RawWebSocket.CLOSE);
            assertThat(close.closeCode()).isEqualTo(1001);
            // A dead peer answers nothing, not even the close frame: the server cuts the TCP connection.
            assertThat(socket.awaitEndOfStream(BOUND)).as("the server closed the TCP connection within %s", BOUND).isTrue();
        }
        awaitOpenWebSockets(n -> n == 0);
    }

    @Test
    void aPeerThatAnswersEveryPing_staysConnectedPastThePongTimeout_andStillServesRequests() throws Exception {
        try (RawWebSocket socket = connect()) {
            int pings = 0;
            long until = System.nanoTime() + PONG_TIMEOUT.multipliedBy(3).toNanos();
            while (System.nanoTime() < until) {
                Optional<Frame> frame = socket.read(Duration.ofNanos(Math.max(1_000_000, until - System.nanoTime())));
                if (frame.isEmpty()) {
                    continue;
                }
                assertThat(frame.get().opcode()).as("only pings arrive while the peer answers them").isEqualTo(RawWebSocket.PING);
                pings++;
                socket.sendPong(frame.get().payload());
            }
            assertThat(pings).as("pinged all along").isGreaterThanOrEqualTo(4);
            socket.sendText(INITIALIZE);
            Frame answer = readUntilAnswering(socket, RawWebSocket.TEXT);
            assertThat(McpHttpClient.parse(answer.text()).getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        }
    }

    @Test
    void aPeerThatSendsMessagesButNoPongs_staysConnected_becauseAnyMessageProvesItIsAlive() throws Exception {
        try (RawWebSocket socket = connect()) {
            socket.sendText(INITIALIZE);
            long until = System.nanoTime() + PONG_TIMEOUT.multipliedBy(3).toNanos();
            long nextMessage = System.nanoTime();
            int id = 100;
            while (System.nanoTime() < until) {
                if (System.nanoTime() >= nextMessage) {
                    socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":" + id++ + ",\"method\":\"ping\"}");
                    nextMessage = System.nanoTime() + PONG_TIMEOUT.dividedBy(4).toNanos();
                }
                Optional<Frame> frame = socket.read(Duration.ofMillis(50));
                assertThat(frame.map(Frame::opcode)).as("never a close frame").isNotEqualTo(Optional.of(RawWebSocket.CLOSE));
            }
            assertThat(server.openWebSockets()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void aClientsOwnPings_areAnsweredWithPongs_butDoNotCountAsProofOfLife() throws Exception {
        try (RawWebSocket socket = connect()) {
            int pongs = 0;
            Frame close = null;
            long deadline = System.nanoTime() + BOUND.toNanos();
            long nextPing = System.nanoTime();
            while (close == null && System.nanoTime() < deadline) {
                if (System.nanoTime() >= nextPing) {
                    socket.sendPing("are-you-there".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    nextPing = System.nanoTime() + PONG_TIMEOUT.dividedBy(4).toNanos();
                }
                Optional<Frame> frame = socket.read(Duration.ofMillis(50));
                if (frame.isPresent() && frame.get().opcode() == RawWebSocket.PONG) {
                    assertThat(frame.get().text()).as("RFC 6455 5.5.3: a pong echoes the ping's data").isEqualTo("are-you-there");
                    pongs++;
                } else if (frame.isPresent() && frame.get().opcode() == RawWebSocket.CLOSE) {
                    close = frame.get();
                }
            }
            assertThat(pongs).isGreaterThanOrEqualTo(1);
            assertThat(close).as("a close frame within %s", BOUND).isNotNull();
            assertThat(close.closeCode()).isEqualTo(1001);
        }
    }

    @Test
    void theJdkClient_whichAnswersPingsOnItsOwn_staysConnectedPastThePongTimeout() throws Exception {
        WebSocketIT.Frames frames = new WebSocketIT.Frames();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/mcp/ws"), frames).join();
        try {
            // Waiting for a close that must not come: three pong timeouts of answered pings.
            int code = frames.closed.get(PONG_TIMEOUT.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS);
            fail("the JDK client answers pings, yet the server closed it with " + code);
        } catch (TimeoutException stillOpen) {
            // expected: the socket outlived the pong timeout three times over
        }
        socket.sendText(INITIALIZE, true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    private static Frame readUntil(RawWebSocket socket, int opcode) throws IOException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Frame> frame = socket.read(Duration.ofNanos(deadline - System.nanoTime()));
            if (frame.isPresent() && frame.get().opcode() == opcode) {
                return frame.get();
            }
        }
        throw new AssertionError("no frame with opcode " + opcode + " within " + BOUND);
    }

    /** Like {@link #readUntil}, answering pings meanwhile. */
    private static Frame readUntilAnswering(RawWebSocket socket, int opcode) throws IOException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Frame> frame = socket.read(Duration.ofNanos(deadline - System.nanoTime()));
            if (frame.isPresent() && frame.get().opcode() == RawWebSocket.PING) {
                socket.sendPong(frame.get().payload());
            } else if (frame.isPresent() && frame.get().opcode() == opcode) {
                return frame.get();
            }
        }
        throw new AssertionError("no frame with opcode " + opcode + " within " + BOUND);
    }

    private static void awaitOpenWebSockets(java.util.function.IntPredicate condition) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.test(server.openWebSockets())) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("open WebSockets stayed at " + server.openWebSockets() + " for " + BOUND);
            }
            Thread.sleep(20);
        }
    }
}
