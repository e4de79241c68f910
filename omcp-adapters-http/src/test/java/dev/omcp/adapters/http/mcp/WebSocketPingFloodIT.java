package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that floods pings and never reads: every ping owes a pong (RFC 6455 5.5.2), and a
 * server that kept reading pings while the pongs could not be written would hold every one of
 * them in memory until the keep-alive closed the socket, 90 s later. Jetty 12 reads the next frame
 * only once the automatic pong of a ping is written, so the flood backs up in the socket buffers
 * instead; this test fails if a Jetty upgrade, or a ping handler of our own, stops doing that
 * (a handler that answered pings without waiting let the server read 256 MiB of pings). A raw
 * socket client, since a WebSocket library reads (and so drains the pongs) on its own.
 */
class WebSocketPingFloodIT {
    /**
     * What the client tries to push: several times every socket buffer between it and the server
     * (about 8 MiB here on loopback are written before the server stops reading).
     */
    private static final long FLOOD_BYTES = 64L * 1024 * 1024;
    /** A write that makes no progress for this long means the server has stopped reading. */
    private static final Duration STALL = Duration.ofSeconds(3);
    private static final Duration BOUND = Duration.ofSeconds(60);

    private WebSocketTransport transport;
    private Javalin app;

    private final McpEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            throw new AssertionError("the flood sends no message");
        }

    };

    @BeforeEach
    void start() {
        transport = WebSocketTestServer.transport(endpoint, new GatewayMetrics(Set.of("ping")));
        app = WebSocketTestServer.start(transport);
    }

    @AfterEach
    void stop() {
        transport.close();
        app.stop();
    }

    @Test
    void aClientThatFloodsPingsAndNeverReads_isNotAnsweredWithoutBound() throws Exception {
        try (SocketChannel channel = SocketChannel.open()) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
            channel.connect(new InetSocketAddress("127.0.0.1", app.port()));
            upgrade(channel);
            channel.configureBlocking(false);

            ByteBuffer ping = maskedPing(125);
            long written = 0;
            long lastProgress = System.nanoTime();
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (written < FLOOD_BYTES && System.nanoTime() < deadline) {
                if (!ping.hasRemaining()) {
                    ping.rewind();
                }
                int n;
                try {
                    n = channel.write(ping);
                } catch (java.io.IOException closedByServer) {
                    break; // the server cut the connection: also a bound
                }
                if (n > 0) {
                    written += n;
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                    break; // the server stopped reading: pings wait in the socket, not in the heap
                } else {
                    Thread.sleep(5);
                }
            }
            assertThat(written)
                    .as("bytes of pings the server read from a client that never reads a pong")
                    .isLessThan(FLOOD_BYTES);
        }
    }

    private void upgrade(SocketChannel channel) throws Exception {
        String request = "GET /mcp/ws HTTP/1.1\r\nHost: 127.0.0.1:" + app.port() + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            one.clear();
            if (channel.read(one) < 0) {
                throw new AssertionError("the server closed during the upgrade: " + head);
            }
            head.write(one.get(0));
        }
        assertThat(head.toString(StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 101");
    }

    /** Many copies of one masked ping frame (RFC 6455 5.2), so each write pushes a lot at once. */
    private static ByteBuffer maskedPing(int payload) {
        int frame = 2 + 4 + payload;
        ByteBuffer buffer = ByteBuffer.allocate(frame * 512);
        for (int i = 0; i < 512; i++) {
            buffer.put((byte) 0x89).put((byte) (0x80 | payload)).put(new byte[] {1, 2, 3, 4});
            for (int b = 0; b < payload; b++) {
                buffer.put((byte) ('p' ^ (b % 4 + 1)));
            }
        }
        return buffer.flip();
    }
}
