package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A stop while clients are busy: a tool call waiting on a backend that never answers, an open
 * server-to-client stream and a WebSocket. The stop takes the shutdown grace and little more; the
 * stream ends, the socket is closed with 1001 (docs/mcp.md, Shutdown), and the grace running out
 * is one warning, not an error with a stack trace.
 */
class ShutdownWithBusyClientsIT {
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @Test
    void aHangingBackendCall_anOpenStreamAndAWebSocket_doNotHoldTheStopPastTheGrace() throws Exception {
        CountDownLatch queried = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        AtomicBoolean hang = new AtomicBoolean(); // once the gateway has started: its start-up probe is answered
        HttpServer backend = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        backend.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        backend.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (hang.get()) {
                queried.countDown();
                try {
                    released.await(60, TimeUnit.SECONDS); // a backend that never answers, for the test's purposes
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        backend.start();
        HttpClient http = HttpClient.newHttpClient();
        try {
            RunningGateway gateway = RunningGateway.start(Map.of("OMCP_SHUTDOWN_GRACE", "1", "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                    "PROMETHEUS_URL", "http://127.0.0.1:" + backend.getAddress().getPort()));
            McpHttpClient client = new McpHttpClient(gateway.baseUrl());
            client.initialize();
            hang.set(true);
            CompletableFuture<HttpResponse<String>> call = CompletableFuture.supplyAsync(() -> client.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"query_metrics\","
                            + "\"arguments\":{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"30m\"}}}", Map.of()));
            assertThat(queried.await(20, TimeUnit.SECONDS)).as("the tool call reached the backend").isTrue();
            CompletableFuture<HttpResponse<Stream<String>>> stream = http.sendAsync(HttpRequest.newBuilder(URI.create(gateway.baseUrl()
                    + "/mcp")).header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId())
                    .header("Mcp-Protocol-Version", "2025-11-25").GET().build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(stream.get(10, TimeUnit.SECONDS).statusCode()).as("the server-to-client stream opened").isEqualTo(200);
            CompletableFuture<Integer> socketClosed = new CompletableFuture<>();
            http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + gateway.port() + "/mcp/ws"), new WebSocket.Listener() {
                @Override
                public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                    socketClosed.complete(statusCode);
                    return null;
                }
            }).get(10, TimeUnit.SECONDS);

            long began = System.nanoTime();
            log.start();
            root.addAppender(log);
            try {
                gateway.close();
            } finally {
                root.detachAppender(log);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - began);

            // 1 s of grace; what follows (Jetty's stop, the sources, the audit chain) takes well under 3 s more
            assertThat(took).as("the stop with a backend that never answers").isLessThan(Duration.ofSeconds(4));
            assertThat(socketClosed.get(5, TimeUnit.SECONDS)).as("the WebSocket's close code").isEqualTo(1001);
            try (Stream<String> lines = stream.get().body()) {
                assertThat(lines.count()).as("the stream ended").isGreaterThanOrEqualTo(0);
            }
            call.handle((response, failure) -> null).get(10, TimeUnit.SECONDS);
            // the grace running out is the operator's setting at work: one warning, not an error with a stack trace
            assertThat(log.list).filteredOn(e -> e.getFormattedMessage().contains("event=shutdown-grace-exceeded")).hasSize(1);
            assertThat(log.list).as("errors and stack traces logged by the stop")
                    .noneSatisfy(e -> assertThat(e.getLevel() == Level.ERROR || e.getThrowableProxy() != null)
                            .as(e.getLoggerName() + " " + e.getFormattedMessage()).isTrue());
        } finally {
            released.countDown();
            http.close();
            backend.stop(0);
        }
    }
}
