package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Zipkin leaves out a span's {@code timestamp} and {@code duration} when it does not know them (a
 * span still in flight, an instrumentation that reports none; its model reads 0 as unset too). A
 * trace none of whose spans tells them has an unknown duration and start, never 0 ms from 1970,
 * which the gateway would show as the fastest trace. A canned loopback Zipkin answers the traces.
 */
class ZipkinUntimedSpansIT {
    @RegisterExtension
    static final PluginUnderTest ZIPKIN = PluginUnderTest.at(ReferencePlugins.plugin("zipkin")).trustRoot(ReferencePlugins.trustRoot());

    private static final long START_MICROS = Instant.parse("2026-01-15T10:20:00Z").toEpochMilli() * 1000;

    private HttpServer zipkin;
    private volatile String traces = "[]";

    @BeforeEach
    void start() throws IOException {
        zipkin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        zipkin.createContext("/api/v2/traces", exchange -> {
            try (exchange) {
                byte[] body = traces.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        zipkin.start();
    }

    @AfterEach
    void stop() {
        zipkin.stop(0);
    }

    @Test
    void aTraceWithoutTimestamps_hasAnUnknownDurationAndStart() throws Exception {
        traces = "[[" + span("a1", null, null, null) + "," + span("a2", "a1", null, 5_000L) + "]]";
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.start()).isEqualTo(TraceSummary.UNKNOWN_START);
            assertThat(t.spanCount()).isEqualTo(2);
        });
        traces = "[[" + span("a1", null, 0L, 0L) + "]]";
        assertThat(onlyTrace()).as("0 is unset in Zipkin's model").satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.start()).isEqualTo(TraceSummary.UNKNOWN_START);
        });
    }

    @Test
    void aTraceWhoseTimedSpansHaveNoDuration_hasAnUnknownDuration_butItsStart() throws Exception {
        traces = "[[" + span("a1", null, START_MICROS, null) + "]]";
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.start()).isEqualTo(Instant.parse("2026-01-15T10:20:00Z"));
        });
    }

    @Test
    void aTraceWithSomeUntimedSpans_isTimedByTheOthers() throws Exception {
        traces = "[[" + span("a1", null, START_MICROS, 235_000L) + "," + span("a2", "a1", null, null) + "]]";
        assertThat(onlyTrace().durationMs()).isEqualTo(235.0);
    }

    private static String span(String id, String parentId, Long timestamp, Long duration) {
        return "{\"traceId\":\"48485a3953bb6124\",\"id\":\"" + id + "\"" + (parentId == null ? "" : ",\"parentId\":\"" + parentId + "\"")
                + ",\"name\":\"op\"" + (timestamp == null ? "" : ",\"timestamp\":" + timestamp)
                + (duration == null ? "" : ",\"duration\":" + duration) + ",\"localEndpoint\":{\"serviceName\":\"checkout\"}}";
    }

    private TraceSummary onlyTrace() throws Exception {
        TimeRange window = new TimeRange(Instant.parse("2026-01-15T10:00:00Z"), Instant.parse("2026-01-15T10:35:00Z"));
        SourceConfig source = new SourceConfig("zipkin", "zipkin", "http://127.0.0.1:" + zipkin.getAddress().getPort(), "",
                JsonValue.EMPTY_JSON_OBJECT);
        try (Connector connector = ZIPKIN.verified().factory().create(source, TestConnectorContext.withTimeout(Duration.ofSeconds(10)))
                .toCompletableFuture().get(10, TimeUnit.SECONDS)) {
            TraceQuery query = new TraceQuery("checkout", window, Optional.empty(), 20, false);
            List<TraceSummary> found = ((TracesCapability) connector).queryTraces(query);
            assertThat(found).hasSize(1);
            return found.get(0);
        }
    }
}
