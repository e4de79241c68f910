package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.connector.PluginUnderTest;
import java.time.Instant;
import java.util.List;
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
    static final PluginUnderTest ZIPKIN = CannedZipkin.plugin();

    @RegisterExtension
    final CannedZipkin zipkin = new CannedZipkin(ZIPKIN);

    @Test
    void aTraceWithoutTimestamps_hasAnUnknownDurationAndStart() throws Exception {
        zipkin.answer("[[" + span("a1", null, null, null) + "," + span("a2", "a1", null, 5_000L) + "]]");
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.start()).isEqualTo(TraceSummary.UNKNOWN_START);
            assertThat(t.spanCount()).isEqualTo(2);
        });
        zipkin.answer("[[" + span("a1", null, 0L, 0L) + "]]");
        assertThat(onlyTrace()).as("0 is unset in Zipkin's model").satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.start()).isEqualTo(TraceSummary.UNKNOWN_START);
        });
    }

    @Test
    void aTraceWhoseTimedSpansHaveNoDuration_hasAnUnknownDuration_butItsStart() throws Exception {
        zipkin.answer("[[" + span("a1", null, CannedZipkin.START_MICROS, null) + "]]");
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.start()).isEqualTo(Instant.parse("2026-01-15T10:20:00Z"));
        });
    }

    @Test
    void aTraceWithSomeUntimedSpans_isTimedByTheOthers() throws Exception {
        zipkin.answer("[[" + span("a1", null, CannedZipkin.START_MICROS, 235_000L) + "," + span("a2", "a1", null, null) + "]]");
        assertThat(onlyTrace().durationMs()).isEqualTo(235.0);
    }

    /** A span of one trace; {@code id} and {@code parentId} are short hex, padded to Zipkin's 16 digits. */
    private static String span(String id, String parentId, Long timestamp, Long duration) {
        return "{\"traceId\":\"48485a3953bb6124\",\"id\":\"" + spanId(id) + "\""
                + (parentId == null ? "" : ",\"parentId\":\"" + spanId(parentId) + "\"")
                + ",\"name\":\"op\"" + (timestamp == null ? "" : ",\"timestamp\":" + timestamp)
                + (duration == null ? "" : ",\"duration\":" + duration) + ",\"localEndpoint\":{\"serviceName\":\"checkout\"}}";
    }

    private static String spanId(String shortHex) {
        return "0".repeat(16 - shortHex.length()) + shortHex;
    }

    private TraceSummary onlyTrace() throws Exception {
        List<TraceSummary> found = zipkin.traces();
        assertThat(found).hasSize(1);
        return found.get(0);
    }
}
