package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.connector.PluginUnderTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Traces as Zipkin's API really answers them, spans unmerged: a span reported in fragments (Zipkin
 * stores each report and leaves merging them to its UI), the client and server halves of one RPC
 * sharing a span id (B3), and a trace whose root span has not arrived while the clocks of its
 * services disagree. A canned loopback Zipkin answers the traces.
 */
class ZipkinTraceShapesIT {
    @RegisterExtension
    static final PluginUnderTest ZIPKIN = CannedZipkin.plugin();

    @RegisterExtension
    final CannedZipkin zipkin = new CannedZipkin(ZIPKIN);

    @Test
    void aSpanReportedInFragments_countsOnce() throws Exception {
        // the root reported when it started (no duration yet) and again when it finished
        zipkin.answer("[[" + span("a1", null, "get /cart", "checkout", "\"timestamp\":" + CannedZipkin.START_MICROS) + ","
                + span("a2", "a1", "load", "checkout", "\"timestamp\":" + (CannedZipkin.START_MICROS + 1_000) + ",\"duration\":5000") + ","
                + span("a1", null, "get /cart", "checkout", "\"timestamp\":" + CannedZipkin.START_MICROS + ",\"duration\":20000")
                + "]]");
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.spanCount()).as("two spans, one of them in two reports").isEqualTo(2);
            assertThat(t.durationMs()).isEqualTo(20.0);
        });
    }

    @Test
    void theClientAndServerHalvesOfOneRpc_sharingASpanId_areTwoSpans() throws Exception {
        long t = CannedZipkin.START_MICROS;
        zipkin.answer("[[" + span("a1", null, "post /checkout", "checkout", "\"kind\":\"SERVER\",\"timestamp\":" + t + ",\"duration\":9000")
                + "," + span("b1", "a1", "charge", "checkout", "\"kind\":\"CLIENT\",\"timestamp\":" + (t + 1_000) + ",\"duration\":6000")
                + "," + span("b1", "a1", "charge", "payments", "\"kind\":\"SERVER\",\"shared\":true,\"timestamp\":" + (t + 2_000)
                        + ",\"duration\":4000")
                // instrumentation that leaves out the shared flag: Zipkin still reads a SERVER after a CLIENT of one id as its half
                + "," + span("c1", "a1", "reserve", "checkout", "\"kind\":\"CLIENT\",\"timestamp\":" + (t + 1_000) + ",\"duration\":2000")
                + "," + span("c1", "a1", "reserve", "stock", "\"kind\":\"SERVER\",\"timestamp\":" + (t + 1_500) + ",\"duration\":1000")
                + "]]");
        assertThat(onlyTrace().spanCount()).isEqualTo(5);
    }

    @Test
    void withoutItsRootSpan_theTraceIsRootedAtTheTopOfWhatArrived_notAtAChildWhoseClockRunsEarly() throws Exception {
        long t = CannedZipkin.START_MICROS;
        // the root (ff) has not been reported; payments-db's clock runs 5 ms behind, so its span seems to start first
        zipkin.answer("[[" + span("a1", "ff", "charge", "payments", "\"timestamp\":" + t + ",\"duration\":30000") + ","
                + span("a2", "a1", "select", "payments-db", "\"timestamp\":" + (t - 5_000) + ",\"duration\":10000") + "]]");
        assertThat(onlyTrace()).satisfies(trace -> {
            assertThat(trace.rootName()).isEqualTo("charge");
            assertThat(trace.rootService()).isEqualTo("payments");
        });
    }

    @Test
    void aServerHalfThatLostItsParentId_isNoRoot_whenItsClientIsInTheTrace() throws Exception {
        long t = CannedZipkin.START_MICROS;
        // payments' instrumentation did not propagate the parent id, and its clock runs 3 ms early
        zipkin.answer("[[" + span("a1", null, "post /checkout", "checkout", "\"kind\":\"SERVER\",\"timestamp\":" + t + ",\"duration\":9000")
                + "," + span("b1", "a1", "charge", "checkout", "\"kind\":\"CLIENT\",\"timestamp\":" + (t + 1_000) + ",\"duration\":6000")
                + "," + span("b1", null, "charge", "payments", "\"kind\":\"SERVER\",\"shared\":true,\"timestamp\":" + (t - 2_000)
                        + ",\"duration\":4000")
                + "]]");
        assertThat(onlyTrace()).satisfies(trace -> {
            assertThat(trace.rootName()).isEqualTo("post /checkout");
            assertThat(trace.rootService()).isEqualTo("checkout");
            assertThat(trace.spanCount()).isEqualTo(3);
        });
    }

    @Test
    void spansWhoseParentLinksFormACycle_areSummarised_fromTheEarliest() throws Exception {
        long t = CannedZipkin.START_MICROS;
        // a1 -> a2 -> a1: no span is a root and none is the top; nothing walks the links, so nothing loops
        zipkin.answer("[[" + span("a1", "a2", "first", "checkout", "\"timestamp\":" + (t + 1_000) + ",\"duration\":3000") + ","
                + span("a2", "a1", "second", "payments", "\"timestamp\":" + t + ",\"duration\":3000") + "]]");
        assertThat(onlyTrace()).satisfies(trace -> {
            assertThat(trace.rootName()).isEqualTo("second");
            assertThat(trace.spanCount()).isEqualTo(2);
            assertThat(trace.durationMs()).isEqualTo(4.0);
        });
    }

    @Test
    void entriesOfTheTraceListThatAreNoTraces_areLeftOut_countedInAWarning_whileTheOthersAreAnswered() throws Exception {
        long t = CannedZipkin.START_MICROS;
        zipkin.answer("[[" + span("a1", null, "get /cart", "checkout", "\"timestamp\":" + t + ",\"duration\":2000") + "],"
                + "[],\"not a trace\",7,{\"traceId\":\"48485a3953bb6124\"},null]");
        try (Connector connector = zipkin.connect()) {
            TraceResult result = ((TracesCapability) connector).searchTraces(CannedZipkin.query());
            assertThat(result.traces()).extracting(TraceSummary::rootName).containsExactly("get /cart");
            assertThat(result.warnings()).containsExactly("5 entries of Zipkin's trace list were left out: not a list of spans, "
                    + "or an empty one (a broken answer, or something other than Zipkin's API at the source URL)");
        }
        zipkin.answer("[[" + span("a1", null, "get /cart", "checkout", "\"timestamp\":" + t + ",\"duration\":2000") + "]]");
        try (Connector connector = zipkin.connect()) {
            assertThat(((TracesCapability) connector).searchTraces(CannedZipkin.query()).warnings()).isEmpty();
        }
    }

    /** A span of one trace; {@code id} and {@code parentId} are short hex, padded to Zipkin's 16 digits; {@code fields} JSON. */
    private static String span(String id, String parentId, String name, String service, String fields) {
        return "{\"traceId\":\"48485a3953bb6124\",\"id\":\"" + spanId(id) + "\""
                + (parentId == null ? "" : ",\"parentId\":\"" + spanId(parentId) + "\"")
                + ",\"name\":\"" + name + "\",\"localEndpoint\":{\"serviceName\":\"" + service + "\"}," + fields + "}";
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
