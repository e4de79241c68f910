package com.acme.jaeger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.query.TimeRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The recorded mock that {@code JaegerPluginIT} runs against: a JDK {@link HttpServer} on a free
 * loopback port replaying what a Jaeger query service answered for two {@code checkout} traces
 * between 10:00 and 11:00 UTC on 2026-03-01 ({@link #window()}), one of them with a failed
 * {@code payments} span. Other services have no traces.
 */
public final class JaegerRecording implements AutoCloseable {
    private static final TimeRange WINDOW = new TimeRange(Instant.parse("2026-03-01T10:00:00Z"), Instant.parse("2026-03-01T11:00:00Z"));
    private static final String SERVICES = """
            {"data":["payments","checkout"],"total":2,"limit":0,"offset":0,"errors":null}""";
    private static final String NO_TRACES = """
            {"data":[],"total":0,"limit":0,"offset":0,"errors":null}""";
    private static final String CHECKOUT_TRACES = """
            {"data":[
              {"traceID":"4bf92f3577b34da6a3ce929d0e0e4736","spans":[
                {"traceID":"4bf92f3577b34da6a3ce929d0e0e4736","spanID":"a3ce929d0e0e4736","operationName":"POST /checkout",
                 "references":[],"startTime":1772360400500000,"duration":1240000,"tags":[],"processID":"p1"},
                {"traceID":"4bf92f3577b34da6a3ce929d0e0e4736","spanID":"00f067aa0ba902b7","operationName":"charge",
                 "references":[{"refType":"CHILD_OF","traceID":"4bf92f3577b34da6a3ce929d0e0e4736","spanID":"a3ce929d0e0e4736"}],
                 "startTime":1772360400600000,"duration":1100000,"tags":[{"key":"error","type":"bool","value":true}],"processID":"p2"}],
               "processes":{"p1":{"serviceName":"checkout","tags":[]},"p2":{"serviceName":"payments","tags":[]}},"warnings":null},
              {"traceID":"0af7651916cd43dd8448eb211c80319c","spans":[
                {"traceID":"0af7651916cd43dd8448eb211c80319c","spanID":"b7ad6b7169203331","operationName":"GET /cart",
                 "references":[],"startTime":1772361672000000,"duration":35000,"tags":[],"processID":"p1"}],
               "processes":{"p1":{"serviceName":"checkout","tags":[]}},"warnings":null}],
             "total":0,"limit":0,"offset":0,"errors":null}""";

    private final HttpServer server;

    private JaegerRecording(HttpServer server) {
        this.server = server;
    }

    /** Starts the recording on a free loopback port. */
    public static JaegerRecording start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/api/services", exchange -> answer(exchange, SERVICES));
            server.createContext("/api/traces", exchange -> answer(exchange,
                    "service=checkout".equals(serviceParameter(exchange)) ? CHECKOUT_TRACES : NO_TRACES));
            server.start();
            return new JaegerRecording(server);
        } catch (IOException e) {
            throw new UncheckedIOException("the Jaeger recording cannot listen on loopback", e);
        }
    }

    /** The base URL of the recording, a source's {@code url}. */
    public String url() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    /** The window the recorded traces lie in. */
    public TimeRange window() {
        return WINDOW;
    }

    private static String serviceParameter(HttpExchange exchange) {
        String query = exchange.getRequestURI().getRawQuery();
        for (String parameter : query == null ? new String[0] : query.split("&")) {
            if (parameter.startsWith("service=")) {
                return URLDecoder.decode(parameter, StandardCharsets.UTF_8);
            }
        }
        return "";
    }

    private static void answer(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (exchange) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
