package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** MCP over WebSocket at /mcp/ws: one JSON-RPC message per text frame. */
class WebSocketIT {
    private static final String TOKEN = "ws-0123456789abcdef0123";
    private static RunningGateway open;
    private static RunningGateway keyed;

    @BeforeAll
    static void start() {
        open = RunningGateway.start();
        keyed = RunningGateway.start(Map.of("OMCP_API_KEYS", "agent:" + TOKEN));
    }

    @AfterAll
    static void stop() {
        open.close();
        keyed.close();
    }

    /** Collects text frames and the close code. */
    static final class Frames implements WebSocket.Listener {
        final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                texts.add(partial.toString());
                partial.setLength(0);
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        JsonObject next() throws InterruptedException {
            return McpHttpClient.parse(nextText());
        }

        String nextText() throws InterruptedException {
            String text = texts.poll(10, TimeUnit.SECONDS);
            assertThat(text).as("a frame within 10 s").isNotNull();
            return text;
        }
    }

    private static WebSocket connect(RunningGateway gateway, Frames frames, Map<String, String> headers, String... subprotocols) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        headers.forEach(builder::header);
        if (subprotocols.length > 0) {
            builder.subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
        }
        return builder.buildAsync(URI.create("ws://127.0.0.1:" + gateway.port() + "/mcp/ws"), frames).join();
    }

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"ws\",\"version\":\"1\"}}}";

    @Test
    void initializeThenToolsCall_overTextFrames() throws Exception {
        Frames frames = new Frames();
        WebSocket socket = connect(open, frames, Map.of());
        socket.sendText(INITIALIZE, true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"test_simple_text\",\"arguments\":{}}}", true).join();
        JsonObject call = frames.next();
        assertThat(call.getInt("id")).isEqualTo(2);
        assertThat(call.getJsonObject("result").getJsonArray("content")).hasSize(1);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void aMessageLargerThanJettysDefaultFrameSize_isServed_andOneOverTheBodyLimitClosesWith1009() throws Exception {
        // docs/mcp.md: a message may be as large as a POST body (1 MiB); Jetty's own default is 64 KiB
        Frames frames = new Frames();
        WebSocket socket = connect(open, frames, Map.of());
        socket.sendText(INITIALIZE, true).join();
        frames.next();
        String padded = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(200_000) + "\"}}";
        socket.sendText(padded, true).join();
        JsonObject answer = frames.next();
        assertThat(answer.getInt("id")).isEqualTo(2);
        assertThat(answer.getJsonObject("result")).isEmpty();

        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{\"pad\":\""
                + "x".repeat(1024 * 1024) + "\"}}", true);
        // RFC 6455 7.4.1: 1009, a message too big to process
        assertThat(frames.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1009);
    }

    @Test
    void batchFrame_inA2025_03_26Session_isAnsweredWithOneFrameHoldingTheArray() throws Exception {
        Frames frames = new Frames();
        WebSocket socket = connect(open, frames, Map.of());
        socket.sendText(INITIALIZE.replace("2025-11-25", "2025-03-26"), true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-03-26");
        socket.sendText("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\",\"arguments\":{}}}]",
                true).join();
        JsonArray answers = Json.createReader(new StringReader(frames.nextText())).readArray();
        assertThat(answers).extracting(a -> a.asJsonObject().getInt("id")).containsExactly(2, 3);
        assertThat(answers.getJsonObject(1).getJsonObject("result").getJsonArray("content")).hasSize(1);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void batchFrame_inA2025_11_25Session_isAnErrorFrame_andTheSocketStaysOpen() throws Exception {
        Frames frames = new Frames();
        WebSocket socket = connect(open, frames, Map.of());
        socket.sendText(INITIALIZE, true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        socket.sendText("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]", true).join();
        JsonObject refusal = frames.next();
        assertThat(refusal.getJsonObject("error").getInt("code")).isEqualTo(-32600);
        assertThat(refusal.getJsonObject("error").getString("message")).contains("Batch requests are not supported");
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", true).join();
        assertThat(frames.next().getInt("id")).isEqualTo(3);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void requestBeforeInitialize_isAnErrorFrame() throws Exception {
        Frames frames = new Frames();
        WebSocket socket = connect(open, frames, Map.of());
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}", true).join();
        assertThat(frames.next().getJsonObject("error").getString("message")).contains("initialize");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void pingBeforeInitialize_isAnswered_asTheMcpLifecycleAllows_andOpensNoSession() throws Exception {
        // MCP lifecycle: a client SHOULD NOT send requests other than pings before initialize is answered
        Frames frames = new Frames();
        WebSocket socket = connect(open, frames, Map.of());
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}", true).join();
        JsonObject pong = frames.next();
        assertThat(pong.getInt("id")).isEqualTo(6);
        assertThat(pong.getJsonObject("result")).isEmpty();
        socket.sendText("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}", true).join();
        assertThat(frames.next().getJsonObject("error").getString("message")).as("still no session").contains("initialize");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void binaryFrame_isAnsweredWithAnErrorAndTheSocketStaysOpen() throws Exception {
        Frames frames = new Frames();
        WebSocket socket = connect(open, frames, Map.of());
        socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).join();
        assertThat(frames.next().getJsonObject("error").getString("message")).contains("binary frames are not supported");
        socket.sendText(INITIALIZE, true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        assertThat(frames.closed).isNotDone();
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void refusedCredential_closesWith1008() throws Exception {
        Frames frames = new Frames();
        connect(keyed, frames, Map.of());
        assertThat(frames.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1008);
    }

    @Test
    void bearerHeader_isAccepted() throws Exception {
        Frames frames = new Frames();
        WebSocket socket = connect(keyed, frames, Map.of("Authorization", "Bearer " + TOKEN));
        socket.sendText(INITIALIZE, true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void bearerSubprotocol_isAcceptedAndEchoed() throws Exception {
        Frames frames = new Frames();
        WebSocket socket = connect(keyed, frames, Map.of(), "bearer." + TOKEN);
        assertThat(socket.getSubprotocol()).isEqualTo("bearer." + TOKEN);
        socket.sendText(INITIALIZE, true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    /** The TypeScript SDK's WebSocket client offers {@code mcp}; a browser fails a handshake that selects none it offered. */
    @Test
    void mcpSubprotocol_isSelected_aloneOrBesideABearerToken_whichStillAuthenticates() throws Exception {
        WebSocket plain = connect(open, new Frames(), Map.of(), "mcp");
        assertThat(plain.getSubprotocol()).isEqualTo("mcp");
        plain.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();

        Frames frames = new Frames();
        WebSocket socket = connect(keyed, frames, Map.of(), "mcp", "bearer." + TOKEN);
        assertThat(socket.getSubprotocol()).as("the token is not echoed when mcp can be selected").isEqualTo("mcp");
        socket.sendText(INITIALIZE, true).join();
        assertThat(frames.next().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void foreignOrigin_refusesTheUpgrade() {
        assertThatThrownBy(() -> connect(open, new Frames(), Map.of("Origin", "https://evil.example")))
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(WebSocketHandshakeException.class)
                .satisfies(e -> assertThat(((WebSocketHandshakeException) e.getCause()).getResponse().statusCode()).isEqualTo(403));
    }
}
