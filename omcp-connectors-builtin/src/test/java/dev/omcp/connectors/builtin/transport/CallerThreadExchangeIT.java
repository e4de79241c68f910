package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.http.BoundedBody;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Plain-HTTP GETs from a virtual thread, while another request of the same client is in flight, go
 * through {@link CallerThreadExchange}: against real loopback servers, each case answers as the JDK
 * client's path does (a request alone, or from a platform thread, takes that path), and what a
 * hostile or broken backend does ends in the same clear failure.
 */
class CallerThreadExchangeIT {
    private static final Set<Integer> CLIENT_PORTS = ConcurrentHashMap.newKeySet();
    private static final CountDownLatch RELEASE_SLOW = new CountDownLatch(1);
    private static final AtomicReference<String> SEEN_AUTH = new AtomicReference<>();
    private static final AtomicReference<CountDownLatch> RELEASE_HELD = new AtomicReference<>(new CountDownLatch(0));
    private static final java.util.concurrent.Semaphore HELD_ARRIVED = new java.util.concurrent.Semaphore(0);
    private static HttpServer server;
    private static ServerSocket rawBackend;
    private static ExecutorService rawThreads;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/json", ex -> {
            CLIENT_PORTS.add(ex.getRemoteAddress().getPort());
            SEEN_AUTH.set(ex.getRequestHeaders().getFirst("Authorization"));
            byte[] body = "{\"status\":\"success\",\"n\":1}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("X-Backend", "one");
            ex.getResponseHeaders().add("x-backend", "two");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/chunked", ex -> {
            ex.sendResponseHeaders(200, 0); // no length: chunked
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < 100; i++) {
                    out.write(("{\"part\":" + i + "}\n").repeat(100).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        });
        server.createContext("/large", ex -> {
            byte[] body = new byte[100_000];
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/error", ex -> {
            byte[] body = "{\"status\":\"error\",\"error\":\"parse error at char 4\"}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(400, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/challenge", ex -> {
            SEEN_AUTH.set(ex.getRequestHeaders().getFirst("Authorization"));
            ex.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"backend\"");
            ex.sendResponseHeaders(401, -1);
            ex.close();
        });
        server.createContext("/redirect", ex -> {
            ex.getResponseHeaders().add("Location", "http://169.254.169.254/latest/meta-data/");
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        server.createContext("/held", ex -> {
            HELD_ARRIVED.release();
            try {
                RELEASE_HELD.get().await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.createContext("/slow", ex -> {
            try {
                RELEASE_SLOW.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();

        // a backend that declares 1,000 bytes and sends 10 before closing
        rawBackend = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        rawThreads = Executors.newVirtualThreadPerTaskExecutor();
        rawThreads.submit(() -> {
            while (!rawBackend.isClosed()) {
                try (Socket socket = rawBackend.accept()) {
                    InputStream in = socket.getInputStream();
                    byte[] request = new byte[4096];
                    in.read(request);
                    socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                            + "{\"status\":").getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // closed at the end of the tests
                }
            }
            return null;
        });
    }

    @AfterAll
    static void stop() throws IOException {
        RELEASE_SLOW.countDown();
        server.stop(0);
        rawBackend.close();
        rawThreads.shutdownNow();
    }

    private static String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static ConnectorContext context(String url, JsonObject settings, Duration timeout) throws ConnectorException {
        return TestContexts.contexts(Clock.systemUTC(), timeout).contextFor(new SourceConfig("t", "prometheus", url, "", settings));
    }

    /** A source's client and the connectors' helper over it. */
    private record Source(HttpClient client, BackendHttp http) {}

    private static Source source(String url, JsonObject settings, Duration timeout) throws ConnectorException {
        ConnectorContext context = context(url, settings, timeout);
        return new Source(context.httpClient(), new BackendHttp(context.httpClient(), url, context.requestTimeout(), "Backend"));
    }

    private static Source source(String url, Duration timeout) throws ConnectorException {
        return source(url, JsonObject.EMPTY_JSON_OBJECT, timeout);
    }

    /**
     * Runs {@code call} on a virtual thread, as a tool call does, while another request of {@code
     * client} waits for its answer, and returns what it returned or threw.
     */
    private static <T> T alongsideAnother(HttpClient client, Callable<T> call) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RELEASE_HELD.set(release);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> held = executor.submit(() -> client.send(HttpRequest.newBuilder(URI.create(base() + "/held")).timeout(Duration.ofSeconds(30)).build(),
                    BoundedBody.atMost(100)));
            assertThat(HELD_ARRIVED.tryAcquire(10, TimeUnit.SECONDS)).as("the held request reached the server").isTrue();
            try {
                return executor.submit(call).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw (Exception) e.getCause();
            } finally {
                release.countDown();
                held.get(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Exception failureAlongsideAnother(HttpClient client, Failing call) throws Exception {
        return alongsideAnother(client, () -> catchHere(call));
    }

    private static boolean readOnTheCallersThread(HttpResponse<?> response) {
        return response.getClass().getEnclosingClass() == CallerThreadExchange.class;
    }

    @Test
    void anAnswerReadOnTheCallersThread_equalsTheClientsAnswer_statusHeadersAndBody() throws Exception {
        HttpClient client = source(base(), Duration.ofSeconds(5)).client();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + "/json")).GET().build();

        HttpResponse<byte[]> here = alongsideAnother(client, () -> client.send(request, BoundedBody.atMost(1 << 20)));
        HttpResponse<byte[]> viaClient = client.send(request, BoundedBody.atMost(1 << 20)); // alone, on a platform thread

        assertThat(readOnTheCallersThread(here)).isTrue();
        assertThat(readOnTheCallersThread(viaClient)).isFalse();
        assertThat(here.statusCode()).isEqualTo(viaClient.statusCode()).isEqualTo(200);
        assertThat(new String(here.body(), StandardCharsets.UTF_8)).isEqualTo(new String(viaClient.body(), StandardCharsets.UTF_8));
        assertThat(here.headers().allValues("x-backend")).containsExactlyInAnyOrderElementsOf(viaClient.headers().allValues("X-Backend"));
        assertThat(here.headers().firstValueAsLong("content-length")).isEqualTo(viaClient.headers().firstValueAsLong("Content-Length"));
        assertThat(here.uri()).isEqualTo(request.uri());
        assertThat(here.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    }

    @Test
    void aRequestAloneOnAVirtualThread_goesThroughTheClient_whoseSelectorIsIdleThen() throws Exception {
        HttpClient client = source(base(), Duration.ofSeconds(5)).client();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            HttpResponse<byte[]> alone = executor.submit(() -> client.send(HttpRequest.newBuilder(URI.create(base() + "/json")).build(),
                    BoundedBody.atMost(1 << 20))).get(30, TimeUnit.SECONDS);

            assertThat(readOnTheCallersThread(alone)).isFalse();
        }
    }

    @Test
    void aChunkedAnswerOfUnknownLength_arrivesWhole() throws Exception {
        Source source = source(base(), Duration.ofSeconds(5));
        String body = alongsideAnother(source.client(), () -> source.http().getText("/chunked"));

        // 100 parts of 100 lines: ten parts with one-digit numbers (11 characters a line), ninety with two
        assertThat(body).hasSize(100 * (10 * 11 + 90 * 12)).startsWith("{\"part\":0}").endsWith("{\"part\":99}\n");
        assertThat(body.lines()).hasSize(10_000);
    }

    @Test
    void theSourcesCredentialsReachItsBackend() throws Exception {
        JsonObject bearer = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "t0ken-123")).build();
        Source source = source(base(), bearer, Duration.ofSeconds(5));

        alongsideAnother(source.client(), () -> source.http().getJson("/json", Map.of()));

        assertThat(SEEN_AUTH.get()).isEqualTo("Bearer t0ken-123");
    }

    @Test
    void connectionsAreKeptAndReused_notOpenedPerRequest() throws Exception {
        Source source = source(base(), Duration.ofSeconds(5));
        CLIENT_PORTS.clear();

        alongsideAnother(source.client(), () -> {
            for (int i = 0; i < 50; i++) {
                source.http().getJson("/json", Map.of());
            }
            return null;
        });

        assertThat(CLIENT_PORTS).hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void anErrorStatus_isTheSameFailureEitherWay_withTheBackendsMessage() throws Exception {
        Source source = source(base(), Duration.ofSeconds(5));

        Exception here = failureAlongsideAnother(source.client(), () -> source.http().getJson("/error", Map.of()));
        Exception viaClient = catchHere(() -> source.http().getJson("/error", Map.of()));

        assertThat(here).isInstanceOf(ConnectorException.class).hasMessage(viaClient.getMessage());
        assertThat(((ConnectorException) here).kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
        assertThat(here.getMessage()).contains("parse error at char 4");
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        Source source = source(base(), Duration.ofSeconds(5));
        Exception e = failureAlongsideAnother(source.client(), () -> source.http().getJson("/redirect", Map.of()));

        assertThat(e).isInstanceOfSatisfying(ConnectorException.class, c -> {
            assertThat(c.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
            assertThat(c.getMessage()).contains("redirect").doesNotContain("169.254");
        });
    }

    @Test
    void aBackendThatStaysSilent_isATimeoutThatSaysHowLongItWaited() throws Exception {
        Source source = source(base(), Duration.ofMillis(400));
        long start = System.nanoTime();
        Exception e = failureAlongsideAnother(source.client(), () -> source.http().getText("/slow"));

        assertThat(e).isInstanceOfSatisfying(ConnectorException.class, c -> {
            assertThat(c.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT);
            assertThat(c.getMessage()).isEqualTo("Backend did not answer within 0.4 s");
        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void anInterruptEndsAWaitAtOnce_asAToolDeadlineDoes_andTheThreadKeepsItsInterrupt() throws Exception {
        Source source = source(base(), Duration.ofSeconds(30));
        AtomicReference<Thread> caller = new AtomicReference<>();
        AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
        AtomicReference<Duration> waited = new AtomicReference<>();
        Exception failure = alongsideAnother(source.client(), () -> {
            caller.set(Thread.currentThread());
            Thread interrupter = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(300); // the request is sent and waits for its answer
                } catch (InterruptedException e) {
                    return;
                }
                caller.get().interrupt();
            });
            long start = System.nanoTime();
            Exception e = catchHere(() -> source.http().getText("/slow"));
            waited.set(Duration.ofNanos(System.nanoTime() - start));
            interruptedAfter.set(Thread.interrupted());
            interrupter.join();
            return e;
        });

        assertThat(waited.get()).isLessThan(Duration.ofSeconds(5));
        assertThat(failure).isInstanceOfSatisfying(ConnectorException.class, c -> {
            assertThat(c.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
            assertThat(c.getMessage()).isEqualTo("the call to Backend was interrupted");
        });
        assertThat(interruptedAfter.get()).isTrue();
    }

    @Test
    void aRefusedConnection_isUnavailable() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        Source source = source("http://127.0.0.1:" + closedPort, Duration.ofSeconds(5));
        Exception e = failureAlongsideAnother(source.client(), () -> source.http().getText("/"));

        assertThat(e).isInstanceOfSatisfying(ConnectorException.class, c -> {
            assertThat(c.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
            assertThat(c.getMessage()).contains("could not be reached");
        });
    }

    @Test
    void anAnswerOverTheBound_isRefused_andTheNextRequestOnTheSourceStillWorks() throws Exception {
        HttpClient client = source(base(), Duration.ofSeconds(5)).client();

        Exception tooLarge = failureAlongsideAnother(client,
                () -> client.send(HttpRequest.newBuilder(URI.create(base() + "/large")).build(), BoundedBody.atMost(10_000)));
        HttpResponse<byte[]> next = alongsideAnother(client,
                () -> client.send(HttpRequest.newBuilder(URI.create(base() + "/json")).build(), BoundedBody.atMost(10_000)));

        assertThat(BoundedBody.isTooLarge(tooLarge)).as("%s", tooLarge).isTrue();
        assertThat(readOnTheCallersThread(next)).isTrue();
        assertThat(new String(next.body(), StandardCharsets.UTF_8)).startsWith("{\"status\":\"success\"");
    }

    @Test
    void anAnswerCutShortOfItsLength_isAFailure_notAShortBody() throws Exception {
        Source source = source("http://127.0.0.1:" + rawBackend.getLocalPort(), Duration.ofSeconds(5));
        Exception e = failureAlongsideAnother(source.client(), () -> source.http().getJson("/", Map.of()));

        assertThat(e).isInstanceOfSatisfying(ConnectorException.class, c -> assertThat(c.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE));
    }

    @Test
    void aBackendsChallenge_isNeverAnsweredWithCredentialsFromAProcessWideAuthenticator() throws Exception {
        // an embedding service may set one for its own calls; the client ignores it, and so does this way
        java.net.Authenticator.setDefault(new java.net.Authenticator() {
            @Override
            protected java.net.PasswordAuthentication getPasswordAuthentication() {
                return new java.net.PasswordAuthentication("service", "s3cret".toCharArray());
            }
        });
        try {
            Source source = source(base(), Duration.ofSeconds(5));
            SEEN_AUTH.set("not asked");
            Exception e = failureAlongsideAnother(source.client(), () -> source.http().getText("/challenge"));

            assertThat(e).isInstanceOfSatisfying(ConnectorException.class,
                    c -> assertThat(c.kind()).isEqualTo(ConnectorException.Kind.UNAUTHORIZED));
            assertThat(SEEN_AUTH.get()).isNull();
        } finally {
            java.net.Authenticator.setDefault(null);
        }
    }

    @Test
    void withAProcessWideCookieStore_requestsStayWithTheClient_whichKeepsNoCookies() {
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/x")).GET().build();
        java.net.CookieHandler.setDefault(new java.net.CookieManager());
        try {
            assertThat(CallerThreadExchange.suits(get, BoundedBody.atMost(10))).isFalse();
        } finally {
            java.net.CookieHandler.setDefault(null);
        }
        assertThat(CallerThreadExchange.suits(get, BoundedBody.atMost(10))).isTrue();
    }

    @Test
    void onlyPlainHttpGetsWithACollectingHandler_goThisWay() {
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/x")).GET().build();
        assertThat(CallerThreadExchange.suits(get, BoundedBody.atMost(10))).isTrue();
        assertThat(CallerThreadExchange.suits(get, HttpResponse.BodyHandlers.ofInputStream())).isFalse();
        assertThat(CallerThreadExchange.suits(HttpRequest.newBuilder(URI.create("https://127.0.0.1:1/x")).GET().build(),
                BoundedBody.atMost(10))).isFalse();
        assertThat(CallerThreadExchange.suits(HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/x"))
                .POST(HttpRequest.BodyPublishers.ofString("q=up")).build(), BoundedBody.atMost(10))).isFalse();
    }

    private interface Failing {
        Object run() throws Exception;
    }

    private static Exception catchHere(Failing call) {
        try {
            call.run();
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError("the call succeeded");
    }

}
