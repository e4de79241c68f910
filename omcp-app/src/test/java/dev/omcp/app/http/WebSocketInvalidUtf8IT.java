package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RawWebSocket;
import dev.omcp.app.support.RawWebSocket.Frame;
import dev.omcp.app.support.RunningGateway;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A text frame that is not valid UTF-8 closes the socket with 1007 (RFC 6455 7.1.7: invalid
 * frame payload data) before any of it reaches the dispatcher; a client sending valid text on
 * another socket is served. Raw frames over a loopback TCP socket, since a WebSocket client
 * library refuses to send such a frame.
 */
class WebSocketInvalidUtf8IT {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static RunningGateway gateway;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void aTextFrameWithInvalidUtf8_closesTheSocketWith1007_andTheConnectionEnds() throws Exception {
        // "id":"<C3 28>": C3 opens a two-byte sequence that 28 does not continue
        byte[] prefix = "{\"jsonrpc\":\"2.0\",\"id\":\"".getBytes(StandardCharsets.US_ASCII);
        byte[] suffix = "\",\"method\":\"ping\"}".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = new byte[prefix.length + 2 + suffix.length];
        System.arraycopy(prefix, 0, payload, 0, prefix.length);
        payload[prefix.length] = (byte) 0xC3;
        payload[prefix.length + 1] = (byte) 0x28;
        System.arraycopy(suffix, 0, payload, prefix.length + 2, suffix.length);
        try (RawWebSocket socket = RawWebSocket.connect(gateway.port(), "/mcp/ws")) {
            socket.sendTextBytes(payload);
            Frame close = null;
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (close == null && System.nanoTime() < deadline) {
                Optional<Frame> frame = socket.read(Duration.ofNanos(deadline - System.nanoTime()));
                assertThat(frame.map(Frame::opcode)).as("no answer frame reaches the client").isNotEqualTo(Optional.of(RawWebSocket.TEXT));
                if (frame.isPresent() && frame.get().opcode() == RawWebSocket.CLOSE) {
                    close = frame.get();
                }
            }
            assertThat(close).as("a close frame within %s", BOUND).isNotNull();
            assertThat(close.closeCode()).as("1007: invalid frame payload data").isEqualTo(1007);
            assertThat(close.closeReason()).doesNotContainPattern("\\p{Cntrl}");
            assertThat(socket.awaitEndOfStream(BOUND)).as("the server ends the connection").isTrue();
        }
        try (RawWebSocket socket = RawWebSocket.connect(gateway.port(), "/mcp/ws")) {
            socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"utf8\",\"version\":\"1\"}}}");
            Frame answer = null;
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (answer == null && System.nanoTime() < deadline) {
                Optional<Frame> frame = socket.read(Duration.ofNanos(deadline - System.nanoTime()));
                if (frame.isPresent() && frame.get().opcode() == RawWebSocket.TEXT) {
                    answer = frame.get();
                }
            }
            assertThat(answer).as("valid text is served").isNotNull();
            assertThat(McpHttpClient.parse(answer.text()).getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        }
    }
}
