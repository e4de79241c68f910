package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A hostile backend that sends its headers at once and then its body one byte every 200 ms for
 * 20 s. The JDK client's request timeout ends with the headers; the guarded client must still end
 * the call at the request timeout, close the connection, and leave streamed bodies (a watch) alone.
 */
class TricklingAnswerIT {
    private static final Duration TRICKLE = Duration.ofSeconds(20);
    private static HttpServer server;
    /** Completed when the server notices that the client dropped the trickling connection. */
    private static volatile CompletableFuture<Long> dropped = new CompletableFuture<>();

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/trickle", ex -> {
            long started = System.nanoTime();
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0); // chunked
            try (OutputStream out = ex.getResponseBody()) {
                long end = System.nanoTime() + TRICKLE.toNanos();
                while (System.nanoTime() < end) {
                    out.write(' ');
                    out.flush();
                    TimeUnit.MILLISECONDS.sleep(200);
                }
                out.write("{}".getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                dropped.complete(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    private static ConnectorContext context(Duration timeout) throws ConnectorException {
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return TestContexts.contexts(Clock.systemUTC(), timeout).contextFor(new SourceConfig("t", "prometheus", url, "",
                JsonObject.EMPTY_JSON_OBJECT));
    }

    @Test
    void aBodyTricklingPastTheRequestTimeoutEndsTheCallAsATimeoutAndDropsTheConnection() throws Exception {
        dropped = new CompletableFuture<>();
        ConnectorContext context = context(Duration.ofSeconds(1));
        BackendHttp http = new BackendHttp(context.httpClient(), "http://127.0.0.1:" + server.getAddress().getPort(),
                context.requestTimeout(), "Prometheus", context.answerBudget());
        long started = System.nanoTime();
        assertThatThrownBy(() -> http.getJson("/trickle", Map.of()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT);
                    assertThat(e.getMessage()).contains("Prometheus").contains("1.0 s");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
        // the exchange was cancelled, not left reading: the server's next write fails
        assertThat(dropped.get(10, TimeUnit.SECONDS)).isLessThan(8_000L);
    }

    @Test
    void theDeadlineAlsoHoldsForAsynchronousCalls() throws Exception {
        ConnectorContext context = context(Duration.ofSeconds(1));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/trickle"))
                .GET().build();
        long started = System.nanoTime();
        CompletableFuture<HttpResponse<byte[]>> answer = context.httpClient().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        assertThatThrownBy(() -> answer.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(java.net.http.HttpTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void aStreamedBodyIsHeldToTheTimeoutOnlyUntilItsHeadersAsBefore() throws Exception {
        ConnectorContext context = context(Duration.ofSeconds(1));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/trickle"))
                .GET().build();
        HttpResponse<InputStream> response = context.httpClient().send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            long end = System.nanoTime() + Duration.ofMillis(2500).toNanos();
            int read = 0;
            while (System.nanoTime() < end) {
                assertThat(body.read()).isEqualTo(' ');
                read++;
            }
            assertThat(read).isGreaterThan(5); // the reader of a stream (a watch) decides how long it reads
        }
    }

    @Test
    void anInterruptStillCancelsTheCall() throws Exception {
        ConnectorContext context = context(Duration.ofSeconds(30));
        BackendHttp http = new BackendHttp(context.httpClient(), "http://127.0.0.1:" + server.getAddress().getPort(),
                context.requestTimeout(), "Prometheus", context.answerBudget());
        CompletableFuture<ConnectorException> failure = new CompletableFuture<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                http.getJson("/trickle", Map.of());
                failure.complete(null);
            } catch (ConnectorException e) {
                failure.complete(e);
            }
        });
        TimeUnit.MILLISECONDS.sleep(500);
        caller.interrupt();
        ConnectorException e = failure.get(5, TimeUnit.SECONDS);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("interrupted");
    }
}
