package dev.omcp.testkit.reference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceSummary;
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
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A loopback Zipkin that answers {@code /api/v2/traces} and {@code /api/v2/services} with whatever a
 * test sets: for answers a real Zipkin will not store (spans without times, ids mixed by {@code STRICT_TRACE_ID=false},
 * hostile ids and times). Registered as an instance extension it runs one fresh server per test:
 *
 * <pre>{@code
 * @RegisterExtension static final PluginUnderTest ZIPKIN = CannedZipkin.plugin();
 * @RegisterExtension final CannedZipkin zipkin = new CannedZipkin(ZIPKIN);
 * }</pre>
 */
final class CannedZipkin implements BeforeEachCallback, AfterEachCallback, AutoCloseable {
    /** The window of {@link #query()}: the canned spans of the tests start within it. */
    static final TimeRange WINDOW = new TimeRange(Instant.parse("2026-01-15T10:00:00Z"), Instant.parse("2026-01-15T10:35:00Z"));
    /** A time inside {@link #WINDOW}, in Zipkin's microseconds, for the tests' spans to start at. */
    static final long START_MICROS = Instant.parse("2026-01-15T10:20:00Z").toEpochMilli() * 1000;

    private final PluginUnderTest plugin;
    private volatile HttpServer server;
    private volatile String traces = "[]";
    private volatile String services = "[]";

    /** A canned Zipkin whose connectors are {@code plugin}'s; its server runs from each test's start to its end. */
    CannedZipkin(PluginUnderTest plugin) {
        this.plugin = plugin;
    }

    /** The zipkin reference plugin, verified and loaded as the gateway would (register it as a static extension). */
    static PluginUnderTest plugin() {
        return PluginUnderTest.at(ReferencePlugins.plugin("zipkin")).trustRoot(ReferencePlugins.trustRoot());
    }

    /** The search every canned test asks: {@code checkout}'s traces in {@link #WINDOW}, at most 20. */
    static TraceQuery query() {
        return new TraceQuery("checkout", WINDOW, Optional.empty(), 20, false);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        start();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** Starts the server on a free loopback port; {@link #close()} stops it. */
    CannedZipkin start() {
        HttpServer started;
        try {
            started = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("a loopback port for the canned Zipkin", e);
        }
        started.createContext("/api/v2/traces", exchange -> answer(exchange, traces));
        started.createContext("/api/v2/services", exchange -> answer(exchange, services));
        started.start();
        server = started;
        return this;
    }

    private static void answer(HttpExchange exchange, String json) throws IOException {
        try (exchange) {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** What the next searches answer: a JSON array of traces, each an array of spans. */
    void answer(String traces) {
        this.traces = traces;
    }

    /** What the next service lists answer: a JSON array, of names in a real Zipkin's answer. */
    void services(String services) {
        this.services = services;
    }

    /** A source reading this server. */
    SourceConfig source() {
        HttpServer running = server;
        if (running == null) {
            throw new IllegalStateException("the canned Zipkin is not running: register it with @RegisterExtension or call start()");
        }
        return new SourceConfig("zipkin", "zipkin", "http://127.0.0.1:" + running.getAddress().getPort(), "", JsonValue.EMPTY_JSON_OBJECT);
    }

    /** A connector of the plugin reading this server. */
    Connector connect() throws Exception {
        return plugin.verified().factory().create(source(), TestConnectorContext.withTimeout(Duration.ofSeconds(10)))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** The traces a fresh connector finds for {@link #query()} in what the server answers now. */
    List<TraceSummary> traces() throws Exception {
        try (Connector connector = connect()) {
            return ((TracesCapability) connector).queryTraces(query());
        }
    }

    @Override
    public void close() {
        HttpServer running = server;
        server = null;
        if (running != null) {
            running.stop(0);
        }
    }
}
