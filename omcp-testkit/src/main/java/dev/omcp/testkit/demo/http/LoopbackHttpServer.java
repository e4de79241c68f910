package dev.omcp.testkit.demo.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A tiny HTTP server on a free loopback port for simulated backends: routes by path prefix, reads
 * query and form parameters, writes JSON.
 *
 * <p>Requests run on platform threads, not virtual ones. A simulated backend stands in for another
 * process with CPUs of its own, but it shares the gateway's JVM: on virtual threads its CPU-bound
 * work (the simulated Loki generating and filtering days of log lines) held every carrier thread
 * of a 2-core machine, so the gateway's own virtual threads, the ones that enforce its timeouts,
 * could not run until the backend finished. The demo's seven-day post-mortem took 34 s against a
 * 20 s deadline that way. Platform threads are preempted by the operating system like another
 * process would be.
 */
public final class LoopbackHttpServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon(true)
            .name("simulated-backend-", 0).factory());

    /** Handles one request. */
    @FunctionalInterface
    public interface Route {
        void handle(Request request) throws IOException;
    }

    /** One request and the means to answer it. */
    public static final class Request {
        private final HttpExchange exchange;
        private final Map<String, List<String>> params;

        Request(HttpExchange exchange, Map<String, List<String>> params) {
            this.exchange = exchange;
            this.params = params;
        }

        public String method() {
            return exchange.getRequestMethod();
        }

        public String path() {
            return exchange.getRequestURI().getPath();
        }

        public String header(String name) {
            return exchange.getRequestHeaders().getFirst(name);
        }

        /** The first value of a query or form parameter, or {@code null}. */
        public String param(String name) {
            List<String> values = params.get(name);
            return values == null || values.isEmpty() ? null : values.getFirst();
        }

        public List<String> params(String name) {
            return params.getOrDefault(name, List.of());
        }

        public void respond(int status, String contentType, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }

        public void json(int status, String body) throws IOException {
            respond(status, "application/json", body);
        }

        /** Starts a chunked response for streaming (Kubernetes watches). */
        public OutputStream stream(int status, String contentType) throws IOException {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, 0);
            return exchange.getResponseBody();
        }
    }

    private LoopbackHttpServer(HttpServer server) {
        this.server = server;
    }

    /** Starts a server on a free loopback port with routes matched by longest path prefix. */
    public static LoopbackHttpServer start(Map<String, Route> routes) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        LoopbackHttpServer wrapper = new LoopbackHttpServer(server);
        List<Map.Entry<String, Route>> ordered = new ArrayList<>(routes.entrySet());
        ordered.sort((a, b) -> b.getKey().length() - a.getKey().length());
        server.createContext("/", exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                Route route = null;
                for (Map.Entry<String, Route> entry : ordered) {
                    if (path.equals(entry.getKey()) || (entry.getKey().endsWith("/") && path.startsWith(entry.getKey()))) {
                        route = entry.getValue();
                        break;
                    }
                }
                Map<String, List<String>> parameters;
                try {
                    parameters = parameters(exchange);
                } catch (IllegalArgumentException e) {
                    // what the real backends answer to a broken %-escape: the client's mistake, not the server's
                    byte[] body = "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid URL escape in the query or form\"}"
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(400, body.length);
                    exchange.getResponseBody().write(body);
                    return;
                }
                Request request = new Request(exchange, parameters);
                if (route == null) {
                    request.respond(404, "text/plain", "404 page not found\n");
                    return;
                }
                route.handle(request);
            } catch (RuntimeException e) {
                byte[] body = ("{\"status\":\"error\",\"errorType\":\"internal\",\"error\":\"" + e.getClass().getSimpleName() + "\"}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(500, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        server.setExecutor(wrapper.executor);
        server.start();
        return wrapper;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static Map<String, List<String>> parameters(HttpExchange exchange) throws IOException {
        Map<String, List<String>> params = new LinkedHashMap<>();
        addQuery(exchange.getRequestURI(), params);
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if ("POST".equals(exchange.getRequestMethod()) && contentType != null
                && contentType.startsWith("application/x-www-form-urlencoded")) {
            String body = new String(exchange.getRequestBody().readNBytes(1 << 20), StandardCharsets.UTF_8);
            addPairs(body, params);
        }
        return params;
    }

    private static void addQuery(URI uri, Map<String, List<String>> params) {
        if (uri.getRawQuery() != null) {
            addPairs(uri.getRawQuery(), params);
        }
    }

    private static void addPairs(String encoded, Map<String, List<String>> params) {
        for (String pair : encoded.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
    }
}
