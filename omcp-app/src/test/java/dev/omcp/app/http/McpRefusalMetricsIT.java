package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RawWebSocket;
import dev.omcp.app.support.RunningGateway;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Refusals of agents at {@code /mcp} and {@code /mcp/ws} are counted by reason in
 * {@code omcp_mcp_refusals_total}: those the transport answers before the dispatcher (a foreign
 * Origin or Host, no credential, a wrong content type, a body too large, a malformed session
 * header, an unknown session on GET or DELETE) and those of the dispatcher, so an operator sees why
 * agents are refused without reading {@code omcp_http_requests_total} by status. Through the real
 * server on a free loopback port.
 */
class McpRefusalMetricsIT {
    private static final String TOKEN = "ci-0123456789abcdef0123";
    /** The shape of the gateway's session ids (43 characters of base64url), naming no session. */
    private static final String UNKNOWN_SESSION = "A".repeat(43);
    private RunningGateway gateway;

    @BeforeEach
    void start() {
        gateway = RunningGateway.start(Map.of("OMCP_API_KEYS", "ci:" + TOKEN));
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    private McpHttpClient agent() {
        return new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + TOKEN));
    }

    private static String ping() {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
    }

    @Test
    void everyReason_isExportedFromZero_underTheTransportsItCanHappenOn() throws Exception {
        String fresh = metrics();
        assertThat(fresh)
                .contains("omcp_mcp_refusals_total{reason=\"unauthenticated\",transport=\"streamable-http\"} 0.0")
                .contains("omcp_mcp_refusals_total{reason=\"unauthenticated\",transport=\"websocket\"} 0.0")
                .contains("omcp_mcp_refusals_total{reason=\"content-type\",transport=\"streamable-http\"} 0.0")
                .contains("omcp_mcp_refusals_total{reason=\"too-many-sockets\",transport=\"websocket\"} 0.0")
                .doesNotContain("omcp_mcp_refusals_total{reason=\"content-type\",transport=\"websocket\"}")
                .doesNotContain("omcp_mcp_refusals_total{reason=\"too-many-sockets\",transport=\"streamable-http\"}");
    }

    @Test
    void streamableHttpRefusals_beforeAndInTheDispatcher_areCountedByReason() throws Exception {
        McpHttpClient anonymous = new McpHttpClient(gateway.baseUrl());
        assertThat(anonymous.post(ping(), Map.of()).statusCode()).isEqualTo(401);
        assertThat(anonymous.post(ping(), Map.of()).statusCode()).isEqualTo(401);
        McpHttpClient agent = agent();
        assertThat(agent.post(ping(), Map.of("Origin", "https://evil.example")).statusCode()).isEqualTo(403);
        assertThat(Http.raw(gateway.port(), "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 403");
        assertThat(agent.post(ping(), Map.of("Content-Type", "text/plain")).statusCode()).isEqualTo(415);
        assertThat(agent.post(ping(), Map.of("Accept", "text/html")).statusCode()).isEqualTo(406);
        assertThat(agent.post(ping(), Map.of("Mcp-Session-Id", "not a session")).statusCode()).isEqualTo(400);
        assertThat(agent.post("{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}", Map.of()).statusCode()).isEqualTo(413);
        // refused by the dispatcher: an unknown session, an unsupported revision, a request without a session
        assertThat(agent.post(ping(), Map.of("Mcp-Session-Id", UNKNOWN_SESSION)).statusCode()).isEqualTo(404);
        assertThat(agent.post(ping(), Map.of("MCP-Protocol-Version", "1999-01-01")).statusCode()).isEqualTo(400);
        assertThat(agent.post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}", Map.of()).statusCode()).isEqualTo(400);
        // refused by the transport on GET and DELETE
        assertThat(send(HttpRequest.newBuilder(mcp()).DELETE().header("Authorization", "Bearer " + TOKEN)
                .header("Mcp-Session-Id", UNKNOWN_SESSION)).statusCode()).isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(mcp()).GET().header("Authorization", "Bearer " + TOKEN)
                .header("Accept", "text/event-stream")).statusCode()).isEqualTo(400);
        assertThat(send(HttpRequest.newBuilder(mcp()).GET().header("Authorization", "Bearer " + TOKEN)
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", UNKNOWN_SESSION)
                .header("MCP-Protocol-Version", "1999-01-01")).statusCode()).isEqualTo(400);

        List<String> expected = List.of(
                line("unauthenticated", "streamable-http", 2),
                line("origin-rejected", "streamable-http", 1),
                line("host-rejected", "streamable-http", 1),
                line("content-type", "streamable-http", 1),
                line("not-acceptable", "streamable-http", 1),
                line("session-header", "streamable-http", 1),
                line("body-too-large", "streamable-http", 1),
                line("session-not-found", "streamable-http", 2),
                line("protocol-version", "streamable-http", 2),
                line("session-required", "streamable-http", 2));
        assertThat(awaitMetrics(expected)).contains(expected);
    }

    @Test
    void aPlainAnswer_isNoRefusal() throws Exception {
        McpHttpClient agent = agent();
        assertThat(agent.initialize().statusCode()).isEqualTo(200);
        assertThat(agent.post(ping(), Map.of()).statusCode()).isEqualTo(200);
        String text = metrics();
        assertThat(text.lines().filter(l -> l.startsWith("omcp_mcp_refusals_total{")).filter(l -> !l.endsWith(" 0.0")))
                .as("nothing refused").isEmpty();
    }

    @Test
    void webSocketRefusals_atTheUpgradeAndOnConnect_areCountedByReason() throws Exception {
        String refused = Http.raw(gateway.port(), "GET /mcp/ws HTTP/1.1\r\nHost: 127.0.0.1:" + gateway.port()
                + "\r\nOrigin: https://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertThat(refused).startsWith("HTTP/1.1 403");
        try (RawWebSocket socket = RawWebSocket.connect(gateway.port(), "/mcp/ws")) {
            Optional<RawWebSocket.Frame> close = socket.read(Duration.ofSeconds(10));
            assertThat(close).as("a close frame").isPresent();
            assertThat(close.get().closeCode()).isEqualTo(1008);
        }
        List<String> expected = List.of(line("origin-rejected", "websocket", 1), line("unauthenticated", "websocket", 1));
        String text = awaitMetrics(expected);
        assertThat(text).contains(expected).contains(line("origin-rejected", "streamable-http", 0));
    }

    private static String line(String reason, String transport, int count) {
        return "omcp_mcp_refusals_total{reason=\"" + reason + "\",transport=\"" + transport + "\"} " + count + ".0";
    }

    private URI mcp() {
        return URI.create(gateway.baseUrl() + "/mcp");
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        return Http.send(request.timeout(Duration.ofSeconds(10)).build());
    }

    private String metrics() {
        return Http.get(gateway.baseUrl() + "/metrics").body();
    }

    /** Counted as the refusal is answered: polled briefly, so a scrape racing the last answer does not fail the test. */
    private String awaitMetrics(List<String> lines) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String text = metrics();
        while (!lines.stream().allMatch(text::contains) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            text = metrics();
        }
        return text;
    }
}
