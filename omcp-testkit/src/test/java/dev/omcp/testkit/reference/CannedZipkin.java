package dev.omcp.testkit.reference;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.TestConnectorContext;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A loopback Zipkin that answers {@code /api/v2/traces} with whatever a test sets: for answers a
 * real Zipkin will not store (spans without times, ids mixed by {@code STRICT_TRACE_ID=false}).
 */
final class CannedZipkin implements AutoCloseable {
    private final HttpServer server;
    private volatile String traces = "[]";

    CannedZipkin() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("a loopback port for the canned Zipkin", e);
        }
        server.createContext("/api/v2/traces", exchange -> {
            try (exchange) {
                byte[] body = traces.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        server.start();
    }

    /** What the next searches answer: a JSON array of traces, each an array of spans. */
    void answer(String traces) {
        this.traces = traces;
    }

    /** A source reading this server. */
    SourceConfig source() {
        return new SourceConfig("zipkin", "zipkin", "http://127.0.0.1:" + server.getAddress().getPort(), "", JsonValue.EMPTY_JSON_OBJECT);
    }

    /** A connector of the zipkin reference plugin reading this server. */
    Connector connect(PluginUnderTest zipkin) throws Exception {
        return zipkin.verified().factory().create(source(), TestConnectorContext.withTimeout(Duration.ofSeconds(10)))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
