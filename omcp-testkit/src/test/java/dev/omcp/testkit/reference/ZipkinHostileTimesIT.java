package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.connector.PluginUnderTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Times a broken or hostile Zipkin-compatible backend may answer, read as the tempo plugin reads
 * Tempo's: a span time that is no time Zipkin could have stored (negative, a fraction, a start
 * beyond 2262, a duration beyond Tempo's 32-bit milliseconds) tells nothing, and a trace stretched
 * beyond that bound has an unknown duration. Neither ranks the trace the slowest or the newest; a
 * time that is not a number at all is a bad response naming the field.
 */
class ZipkinHostileTimesIT {
    @RegisterExtension
    static final PluginUnderTest ZIPKIN = CannedZipkin.plugin();

    @RegisterExtension
    final CannedZipkin zipkin = new CannedZipkin(ZIPKIN);

    private static final long START = CannedZipkin.START_MICROS;
    /** Tempo's largest {@code durationMs} (a uint32), in Zipkin's microseconds. */
    private static final long LONGEST_MICROS = 0xFFFF_FFFFL * 1000;

    @Test
    void aSpanDurationBeyondTheLongestTempoCanHold_isNoDuration_notCenturies() throws Exception {
        zipkin.answer("[[" + span("a1", null, Long.toString(START), Long.toString(LONGEST_MICROS + 1)) + "]]");
        assertThat(onlyTrace().durationMs()).isNaN();
        zipkin.answer("[[" + span("a1", null, Long.toString(START), Long.toString(Long.MAX_VALUE - START)) + "]]");
        assertThat(onlyTrace().durationMs()).isNaN();
        zipkin.answer("[[" + span("a1", null, Long.toString(START), Long.toString(LONGEST_MICROS)) + "]]");
        assertThat(onlyTrace().durationMs()).as("the bound itself is a duration").isEqualTo(LONGEST_MICROS / 1000.0);
    }

    @Test
    void spansDecadesApart_makeTheTracesDurationUnknown_notTheSlowest() throws Exception {
        zipkin.answer("[[" + span("a1", null, "1", "1000") + "," + span("a2", "a1", Long.toString(START), "235000") + "]]");
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.spanCount()).isEqualTo(2);
        });
    }

    @Test
    void aNegativeOrFractionalDuration_isNoDuration_theTraceIsTimedByItsOtherSpans() throws Exception {
        for (String broken : new String[] {"-5000", "1.5", "-9223372036854775808", "1e400"}) {
            zipkin.answer("[[" + span("a1", null, Long.toString(START), "235000") + "," + span("a2", "a1", Long.toString(START), broken)
                    + "]]");
            assertThat(onlyTrace().durationMs()).as(broken).isEqualTo(235.0);
            zipkin.answer("[[" + span("a1", null, Long.toString(START), broken) + "]]");
            assertThat(onlyTrace().durationMs()).as("the only duration " + broken).isNaN();
        }
    }

    @Test
    void aStartBeyondTheYear2262OrNegativeOrFractional_isNoStart_soTheTraceDoesNotRankNewest() throws Exception {
        for (String broken : new String[] {"9223372036854776", "9000000000000000000", "-1", "1768472400000000.5", "99e99"}) {
            zipkin.answer("[[" + span("a1", null, broken, "235000") + "]]");
            assertThat(onlyTrace()).as(broken).satisfies(t -> {
                assertThat(t.start()).isEqualTo(TraceSummary.UNKNOWN_START);
                assertThat(t.durationMs()).isNaN();
            });
        }
        zipkin.answer("[[" + span("a1", null, "9223372036854775", "1000") + "]]");
        assertThat(onlyTrace().start()).as("the last microsecond Tempo's nanoseconds reach")
                .isEqualTo(Instant.ofEpochSecond(9_223_372_036L, 854_775_000));
    }

    @Test
    void aTimeThatIsNotANumber_isABadResponseNamingTheField_withoutQuotingIt() throws Exception {
        zipkin.answer("[[" + span("a1", null, "\"soon\"", "1000") + "]]");
        assertBadResponse("Zipkin returned a span whose 'timestamp' is not a number of microseconds", "soon");
        zipkin.answer("[[" + span("a1", null, Long.toString(START), "{\"ms\":5}") + "]]");
        assertBadResponse("Zipkin returned a span whose 'duration' is not a number of microseconds", "ms");
    }

    /** A span of one trace; the times are JSON as written, and {@code id} and {@code parentId} short hex padded to 16 digits. */
    private static String span(String id, String parentId, String timestamp, String duration) {
        return "{\"traceId\":\"48485a3953bb6124\",\"id\":\"" + spanId(id) + "\""
                + (parentId == null ? "" : ",\"parentId\":\"" + spanId(parentId) + "\"")
                + ",\"name\":\"op\",\"timestamp\":" + timestamp + ",\"duration\":" + duration
                + ",\"localEndpoint\":{\"serviceName\":\"checkout\"}}";
    }

    private static String spanId(String shortHex) {
        return "0".repeat(16 - shortHex.length()) + shortHex;
    }

    private TraceSummary onlyTrace() throws Exception {
        List<TraceSummary> found = zipkin.traces();
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    private void assertBadResponse(String message, String notQuoted) {
        assertThatThrownBy(zipkin::traces).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
            assertThat(e.getMessage()).contains(message).doesNotContain(notQuoted);
        });
    }
}
