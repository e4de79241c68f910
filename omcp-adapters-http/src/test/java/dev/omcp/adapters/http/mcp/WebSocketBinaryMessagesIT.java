package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Binary messages are never read, only refused, so they are bounded as text messages are: one as
 * large as a text message may be gets the error that says to send text (a client library that sends
 * its JSON as binary learns what is wrong), and a larger one closes the socket with 1009 instead of
 * being gathered in memory. Real Javalin on loopback and the JDK's WebSocket client.
 */
class WebSocketBinaryMessagesIT {
    /** The bound of a message; Jetty's own default for a binary message is 64 KiB, below it. */
    private static final int MAX_MESSAGE_BYTES = 200_000;
    private static final int MESSAGE_TOO_BIG = 1009;

    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.empty());
        }
    };
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("ping")))
                .maxMessageBytes(MAX_MESSAGE_BYTES)
                .build();
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
    void aBinaryMessageAsLargeAsATextMessageMayBe_isAnsweredWithTheError_andTheSocketStaysOpen() throws Exception {
        sendBinary(MAX_MESSAGE_BYTES);

        assertThat(client.nextText()).contains("binary frames are not supported");
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
        assertThat(client.closed.isDone()).isFalse();
    }

    @Test
    void aBinaryMessageOverTheBound_closesTheSocketWith1009() throws Exception {
        sendBinary(MAX_MESSAGE_BYTES + 1);

        assertThat(client.awaitClose().code()).isEqualTo(MESSAGE_TOO_BIG);
        assertThat(client.texts).isEmpty();
    }

    @Test
    void aHugeBinaryMessageInManyFrames_closesTheSocketWith1009_beforeItEnds() throws Exception {
        // A message meant to be 64 MiB, in 64 KiB frames each well under the bound: only the message gathered so far
        // passes it. The client stops once it has, and never ends the message: a frame written after the server's
        // close would race its close frame, and the broken pipe it meets would hide the close code.
        byte[] frame = new byte[64 * 1024];
        int sent = 0;
        while (sent <= MAX_MESSAGE_BYTES) {
            client.socket.sendBinary(ByteBuffer.wrap(frame), false).get(10, TimeUnit.SECONDS);
            sent += frame.length;
        }

        assertThat(client.awaitClose().code()).isEqualTo(MESSAGE_TOO_BIG);
        assertThat(client.texts).isEmpty();
    }

    private void sendBinary(int bytes) throws Exception {
        client.socket.sendBinary(ByteBuffer.wrap(new byte[bytes]), true).get(10, TimeUnit.SECONDS);
    }
}
