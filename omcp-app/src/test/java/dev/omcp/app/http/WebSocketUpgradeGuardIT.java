package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.RunningGateway;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The DNS-rebinding and cross-site guard (Host and Origin) holds for the WebSocket upgrade at
 * {@code /mcp/ws} as it does for {@code POST /mcp}: a page of another site can open a WebSocket to
 * any address (browsers apply no same-origin rule to it) and sends its Origin, so the upgrade is
 * where that page is stopped, before any credential is looked at. A real WebSocket client on loopback.
 */
class WebSocketUpgradeGuardIT {
    private static final String TOKEN = "ws-guard-0123456789abcdef";
    private static final String LISTED = "https://ui.example.com";
    private static RunningGateway gateway;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(Map.of("OMCP_API_KEYS", "agent:" + TOKEN, "OMCP_ALLOWED_ORIGINS", LISTED));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void aForeignOrigin_isRefusedTheUpgrade_asPostIsRefused_evenWithAValidToken() {
        for (String origin : new String[] {"https://evil.example", "null", "http://127.0.0.1:1"}) {
            Map<String, String> headers = Map.of("Origin", origin, "Authorization", "Bearer " + TOKEN);
            assertThat(post(headers).statusCode()).as("POST /mcp from %s", origin).isEqualTo(403);
            assertThatThrownBy(() -> connect(headers)).as("upgrade from %s", origin)
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(WebSocketHandshakeException.class)
                    .satisfies(e -> assertThat(((WebSocketHandshakeException) e.getCause()).getResponse().statusCode()).isEqualTo(403));
        }
        String upgrade = Http.raw(gateway.port(), upgradeRequest("127.0.0.1:" + gateway.port(), "https://evil.example"));
        // the same JSON error body as every other refusal, for a CLI or proxy that reads it; never the credential
        assertThat(upgrade).startsWith("HTTP/1.1 403").doesNotContainIgnoringCase("Sec-WebSocket-Accept")
                .containsIgnoringCase("Content-Type: application/json").contains("\"OMCP_ORIGIN_REJECTED\"")
                .contains("OMCP_ALLOWED_ORIGINS").doesNotContain(TOKEN);
    }

    @Test
    void aForeignHost_isRefusedTheUpgrade_asPostIsRefused() {
        String post = Http.raw(gateway.port(), "POST /mcp HTTP/1.1\r\nHost: rebound.example.com:" + gateway.port()
                + "\r\nContent-Type: application/json\r\nAuthorization: Bearer " + TOKEN
                + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        assertThat(post).startsWith("HTTP/1.1 403").contains("OMCP_HOST_REJECTED");

        String upgrade = Http.raw(gateway.port(), upgradeRequest("rebound.example.com:" + gateway.port(), null));
        assertThat(upgrade).startsWith("HTTP/1.1 403").doesNotContainIgnoringCase("Sec-WebSocket-Accept")
                .containsIgnoringCase("Content-Type: application/json").contains("\"OMCP_HOST_REJECTED\"").doesNotContain(TOKEN);
    }

    @Test
    void aListedOrigin_andTheSameOrigin_areUpgraded() {
        for (String origin : new String[] {LISTED, "http://127.0.0.1:" + gateway.port()}) {
            WebSocket socket = connect(Map.of("Origin", origin, "Authorization", "Bearer " + TOKEN));
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
        }
    }

    @Test
    void noUpgrade_leavesAServletSessionBehind_norAnswersItsCookie() throws Exception {
        // Javalin reads the servlet session at each upgrade: its default handler answered JSESSIONID and kept the
        // session, never expiring, for every upgrade, refused ones too (memory anyone reaching the port could grow)
        String refused = Http.raw(gateway.port(), upgradeRequest("127.0.0.1:" + gateway.port(), "https://evil.example"));
        assertThat(refused).startsWith("HTTP/1.1 403").doesNotContainIgnoringCase("Set-Cookie");

        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(upgradeRequest("127.0.0.1:" + gateway.port(), null).getBytes(StandardCharsets.US_ASCII));
            String head = headOf(socket.getInputStream());
            assertThat(head).startsWith("HTTP/1.1 101").doesNotContainIgnoringCase("Set-Cookie");
        }
    }

    /** The status line and headers of an answer, read up to the blank line that ends them (an upgraded socket stays open). */
    private static String headOf(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    private static String upgradeRequest(String host, String origin) {
        return "GET /mcp/ws HTTP/1.1\r\nHost: " + host + (origin == null ? "" : "\r\nOrigin: " + origin)
                + "\r\nAuthorization: Bearer " + TOKEN + "\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    }

    private static WebSocket connect(Map<String, String> headers) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        headers.forEach(builder::header);
        return builder.buildAsync(URI.create("ws://127.0.0.1:" + gateway.port() + "/mcp/ws"), new WebSocket.Listener() { }).join();
    }

    private static HttpResponse<String> post(Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
        headers.forEach(request::header);
        return Http.send(request.build());
    }
}
