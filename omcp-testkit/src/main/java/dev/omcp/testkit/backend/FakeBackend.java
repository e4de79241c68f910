package dev.omcp.testkit.backend;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The server under a recorded fake: a JDK {@code HttpServer} on a free loopback port, one virtual
 * thread per request. Subclasses answer in {@link #handle}; tests read {@link #requests()} and
 * queue failures with {@link #failNext} and {@link #delayNext}.
 */
public abstract class FakeBackend implements AutoCloseable {
    /** One request the fake received. */
    public record Request(String method, String path, Map<String, String> query, Map<String, String> headers) {}

    /** What the fake answers. */
    public record Answer(int status, String contentType, byte[] body) {
        /** A JSON answer. */
        public static Answer json(int status, String json) {
            return new Answer(status, "application/json", json.getBytes(StandardCharsets.UTF_8));
        }

        /** A plain-text answer. */
        public static Answer text(int status, String text) {
            return new Answer(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Deque<Answer> failures = new ArrayDeque<>();
    private final Deque<Duration> delays = new ArrayDeque<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    protected FakeBackend() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::serve);
        server.start();
    }

    /** The base URL, {@code http://127.0.0.1:<port>}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request received so far, in order. */
    public List<Request> requests() {
        return Collections.unmodifiableList(requests);
    }

    /** Forgets the recorded requests. */
    public void clearRequests() {
        requests.clear();
    }

    /** The next request gets {@code answer} instead of the normal one. */
    public synchronized void failNext(Answer answer) {
        failures.add(answer);
    }

    /** The next request is answered only after {@code delay} (or when the fake closes). */
    public synchronized void delayNext(Duration delay) {
        delays.add(delay);
    }

    private synchronized Answer nextFailure() {
        return failures.poll();
    }

    private synchronized Duration nextDelay() {
        return delays.poll();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            serveOpen(exchange);
        }
    }

    private void serveOpen(HttpExchange exchange) throws IOException {
        try {
            URI uri = exchange.getRequestURI();
            Map<String, String> query = new LinkedHashMap<>(parseQuery(uri.getRawQuery()));
            if (exchange.getRequestMethod().equals("POST")) {
                query.putAll(parseQuery(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            }
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
            Request request = new Request(exchange.getRequestMethod(), uri.getPath(), query, headers);
            requests.add(request);
            Duration delay = nextDelay();
            if (delay != null) {
                try {
                    closing.await(delay.toMillis(), TimeUnit.MILLISECONDS); // a slow backend; released early on close
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            Answer failure = nextFailure();
            if (failure != null) {
                write(exchange, failure);
                return;
            }
            if (!stream(request, exchange)) {
                write(exchange, handle(request));
            }
        } catch (RuntimeException e) {
            write(exchange, Answer.text(500, "fake backend bug: " + e));
        }
    }

    /** Answers one request. */
    protected abstract Answer handle(Request request);

    /**
     * Lets a subclass stream a response itself (for watches). Return {@code false} to answer with
     * {@link #handle} instead.
     */
    protected boolean stream(Request request, HttpExchange exchange) throws IOException {
        return false;
    }

    /** Whether the fake is shutting down; streaming handlers stop when it is. */
    protected boolean closing() {
        return closing.getCount() == 0;
    }

    /** Waits up to {@code max} unless the fake closes first. */
    protected void pause(Duration max) {
        try {
            closing.await(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Answers {@code answer} from {@link #stream}, for a streaming request the subclass refuses. */
    protected static void reply(HttpExchange exchange, Answer answer) throws IOException {
        write(exchange, answer);
    }

    private static void write(HttpExchange exchange, Answer answer) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", answer.contentType());
        exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
        if (answer.body().length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer.body());
            }
        }
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(key, value);
        }
        return out;
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
    }
}
