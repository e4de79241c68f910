package dev.omcp.testkit.fakes;

import dev.omcp.sdk.json.Jsonp;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A recorded Grafana Tempo (2.x HTTP API) on a free loopback port.
 *
 * <p>Replays three recorded traces between 10:00 and 10:35 UTC on 2026-01-15 ({@link #window()}):
 * two of service {@code checkout} (one with failed {@code payments} spans) and one of {@code cart}
 * (in Tempo 1.x's {@code instrumentationLibrarySpans} shape). The two {@code checkout} hits carry
 * {@code serviceStats} as Tempo 2.3 and later answer; the {@code cart} hit, recorded from an older
 * Tempo, does not. {@link #withoutServiceStats()} answers every hit as a Tempo before 2.3 would.
 * It answers:
 * <ul>
 *   <li>{@code GET /ready}: {@code ready};
 *   <li>{@code GET /api/search?q=&start=&end=&limit=}: the recorded search answer, narrowed to the
 *       service of {@code { resource.service.name = "..." }}, to {@code status = error} when the
 *       query asks, and to the window; a query without a service clause gets Tempo's 400 parse error;
 *   <li>{@code GET /api/traces/<id>}: the recorded trace, or Tempo's 404 {@code trace not found};
 *   <li>{@code GET /api/search/tag/service.name/values}: the recorded service names.
 * </ul>
 * Failures on demand: {@link #fail} answers a status and body, {@link #stall} holds answers until
 * {@link #release()} (a slow backend), {@link #garble} answers bytes that are not JSON;
 * {@link #hitFields} changes what a search hit says.
 */
public final class TempoFake implements AutoCloseable {
    private static final String RECORDINGS = "/dev/omcp/testkit/fakes/tempo/";
    private static final Pattern SERVICE = Pattern.compile("resource\\.service\\.name\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One request the fake received. */
    public record Request(String path, Map<String, String> query) {}

    private record Failure(int status, String body) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Failure> failures = new ConcurrentHashMap<>();
    private final Map<String, Boolean> garbled = new ConcurrentHashMap<>();
    private final Map<String, Boolean> stalled = new ConcurrentHashMap<>();
    private final Map<String, JsonValue> serviceStats = new ConcurrentHashMap<>();
    private final Map<String, JsonObject> hitFields = new ConcurrentHashMap<>();
    private volatile boolean withoutServiceStats;
    private volatile CountDownLatch stall = new CountDownLatch(1);
    private final JsonObject search = recording("search.json");

    private TempoFake() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts the fake on a free loopback port. */
    public static TempoFake start() {
        try {
            return new TempoFake();
        } catch (IOException e) {
            throw new UncheckedIOException("the Tempo fake could not bind a loopback port", e);
        }
    }

    /** The base URL, for example {@code http://127.0.0.1:41234}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A source of type {@code tempo} pointing at the fake. */
    public SourceConfig source(String name) {
        return new SourceConfig(name, "tempo", url(), "", JsonValue.EMPTY_JSON_OBJECT);
    }

    /** The window the recorded traces lie in. */
    public static TimeRange window() {
        return new TimeRange(Instant.parse("2026-01-15T10:00:00Z"), Instant.parse("2026-01-15T10:35:00Z"));
    }

    /**
     * Waits until at least {@code count} requests with a path starting with {@code pathPrefix}
     * arrived, for example to see that stalled requests are in flight at the same time.
     *
     * @return whether they arrived within {@code timeout}
     */
    public boolean awaitRequests(String pathPrefix, int count, java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (requests) {
            while (requests.stream().filter(r -> r.path().startsWith(pathPrefix)).count() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(requests, left);
            }
            return true;
        }
    }

    /** Every request so far, in arrival order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Answers requests whose path starts with {@code pathPrefix} with {@code status} and {@code body}. */
    public TempoFake fail(String pathPrefix, int status, String body) {
        failures.put(pathPrefix, new Failure(status, body));
        return this;
    }

    /** Answers requests whose path starts with {@code pathPrefix} with bytes that are not JSON. */
    public TempoFake garble(String pathPrefix) {
        garbled.put(pathPrefix, Boolean.TRUE);
        return this;
    }

    /** Holds the answers to {@code pathPrefix} until {@link #release()} or {@link #close()}. */
    public TempoFake stall(String pathPrefix) {
        stalled.put(pathPrefix, Boolean.TRUE);
        return this;
    }

    /** Answers searches as Tempo before 2.3 did: no hit says its trace's span and error counts. */
    public TempoFake withoutServiceStats() {
        withoutServiceStats = true;
        return this;
    }

    /** Answers {@code serviceStats} of the hit {@code traceId} with {@code json} instead of the recorded ones. */
    public TempoFake serviceStats(String traceId, String json) {
        try (JsonReader reader = Jsonp.reader(json)) {
            serviceStats.put(traceId, reader.readValue());
        }
        return this;
    }

    /**
     * Answers the hit {@code traceId} with the members of the JSON object {@code json} in place of the
     * recorded ones (a JSON {@code null} member removes it). The search still matches on the recording.
     */
    public TempoFake hitFields(String traceId, String json) {
        try (JsonReader reader = Jsonp.reader(json)) {
            hitFields.put(traceId, reader.readObject());
        }
        return this;
    }

    /** Lets stalled answers go and stops stalling. */
    public void release() {
        stalled.clear();
        CountDownLatch latch = stall;
        stall = new CountDownLatch(1);
        latch.countDown();
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            synchronized (requests) {
                requests.add(new Request(path, query));
                requests.notifyAll();
            }
            if (matches(stalled, path)) {
                try {
                    stall.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            Optional<Failure> failure = failures.entrySet().stream().filter(f -> path.startsWith(f.getKey())).map(Map.Entry::getValue).findFirst();
            if (failure.isPresent()) {
                send(exchange, failure.get().status(), "text/plain", failure.get().body());
                return;
            }
            if (matches(garbled, path)) {
                send(exchange, 200, "application/json", "<html>proxy error</html>");
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "text/plain", "method not allowed");
            } else if (path.equals("/ready")) {
                send(exchange, 200, "text/plain", "ready\n");
            } else if (path.equals("/api/search")) {
                search(exchange, query);
            } else if (path.startsWith("/api/traces/")) {
                trace(exchange, path.substring("/api/traces/".length()));
            } else if (path.equals("/api/search/tag/service.name/values")) {
                send(exchange, 200, "application/json", recording("service-names.json").toString());
            } else {
                send(exchange, 404, "text/plain", "404 page not found\n");
            }
        }
    }

    private static boolean matches(Map<String, Boolean> prefixes, String path) {
        return prefixes.keySet().stream().anyMatch(path::startsWith);
    }

    private void search(HttpExchange exchange, Map<String, String> query) throws IOException {
        String q = query.getOrDefault("q", "");
        Matcher service = SERVICE.matcher(q);
        if (!service.find()) {
            send(exchange, 400, "text/plain", "invalid TraceQL query: parse error at line 1, col 1: syntax error: unexpected IDENTIFIER");
            return;
        }
        String wanted = service.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
        boolean errorsOnly = q.contains("status = error");
        long start = Long.parseLong(query.getOrDefault("start", "0")) * 1_000_000_000L;
        long end = query.containsKey("end") ? Long.parseLong(query.get("end")) * 1_000_000_000L : Long.MAX_VALUE;
        int limit = Integer.parseInt(query.getOrDefault("limit", "20"));
        JsonArrayBuilder traces = Jsonp.array();
        int count = 0;
        for (JsonValue value : search.getJsonArray("traces")) {
            JsonObject trace = (JsonObject) value;
            long traceStart = Long.parseLong(trace.getString("startTimeUnixNano"));
            if (!trace.getString("rootServiceName").equals(wanted) || traceStart < start || traceStart >= end || count >= limit) {
                continue;
            }
            if (errorsOnly && !recording("traces/" + trace.getString("traceID") + ".json").toString().contains("STATUS_CODE_ERROR")) {
                continue;
            }
            traces.add(withFieldsAsAsked(withServiceStatsAsAsked(trace)));
            count++;
        }
        send(exchange, 200, "application/json",
                Jsonp.object().add("traces", traces).add("metrics", search.getJsonObject("metrics")).build().toString());
    }

    private JsonObject withServiceStatsAsAsked(JsonObject trace) {
        JsonValue replaced = serviceStats.get(trace.getString("traceID"));
        if (!withoutServiceStats && replaced == null) {
            return trace;
        }
        JsonObjectBuilder hit = Jsonp.provider().createObjectBuilder(trace).remove("serviceStats");
        if (!withoutServiceStats) {
            hit.add("serviceStats", replaced);
        }
        return hit.build();
    }

    private JsonObject withFieldsAsAsked(JsonObject trace) {
        JsonObject fields = hitFields.get(trace.getString("traceID"));
        if (fields == null) {
            return trace;
        }
        JsonObjectBuilder hit = Jsonp.provider().createObjectBuilder(trace);
        fields.forEach((name, value) -> {
            if (value.getValueType() == JsonValue.ValueType.NULL) {
                hit.remove(name);
            } else {
                hit.add(name, value);
            }
        });
        return hit.build();
    }

    private void trace(HttpExchange exchange, String id) throws IOException {
        if (!id.matches("[0-9a-f]{1,32}")) {
            send(exchange, 400, "text/plain", "failed to parse traceID: invalid trace id " + id);
            return;
        }
        String padded = "0".repeat(32 - id.length()) + id;
        try (InputStream in = TempoFake.class.getResourceAsStream(RECORDINGS + "traces/" + padded + ".json")) {
            if (in == null) {
                send(exchange, 404, "text/plain", "trace not found");
                return;
            }
            send(exchange, 200, "application/json", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static JsonObject recording(String name) {
        try (InputStream in = TempoFake.class.getResourceAsStream(RECORDINGS + name)) {
            if (in == null) {
                throw new IllegalStateException("the recording " + name + " is missing from omcp-testkit");
            }
            try (JsonReader reader = Jsonp.reader((new String(in.readAllBytes(), StandardCharsets.UTF_8)))) {
                return reader.readObject();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String key = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            query.put(key, value);
        }
        return query;
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
