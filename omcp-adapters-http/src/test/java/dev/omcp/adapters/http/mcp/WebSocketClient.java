package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A JDK WebSocket client for the transport's integration tests: collects text frames and the close. */
final class WebSocketClient implements WebSocket.Listener {
    /** The close frame the server sent. */
    record Close(int code, String reason) {}

    final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
    final CompletableFuture<Close> closed = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    WebSocket socket;

    /** Connects to {@code /mcp/ws} on 127.0.0.1 at {@code port} with {@code headers}. */
    static WebSocketClient connect(int port, Map<String, String> headers) throws Exception {
        WebSocketClient client = new WebSocketClient();
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
        headers.forEach(builder::header);
        client.socket = builder.buildAsync(URI.create("ws://127.0.0.1:" + port + "/mcp/ws"), client).get(10, TimeUnit.SECONDS);
        return client;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            texts.add(partial.toString());
            partial.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(new Close(statusCode, reason));
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.completeExceptionally(error);
    }

    void send(String text) throws Exception {
        socket.sendText(text, true).get(10, TimeUnit.SECONDS);
    }

    String nextText() throws InterruptedException {
        String text = texts.poll(10, TimeUnit.SECONDS);
        assertThat(text).as("a frame within 10 s").isNotNull();
        return text;
    }

    Close awaitClose() throws Exception {
        return closed.get(10, TimeUnit.SECONDS);
    }

    void close() {
        socket.abort();
    }
}
