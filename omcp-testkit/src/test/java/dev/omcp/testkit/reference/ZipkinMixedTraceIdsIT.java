package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.connector.PluginUnderTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Zipkin run with {@code STRICT_TRACE_ID=false} (while instrumentation moves to 128-bit ids)
 * groups spans by the low 64 bits of their trace id, so one trace it answers can hold the 64-bit id
 * and its 128-bit form. The zipkin reference plugin names such a trace by its 128-bit id, whatever
 * the order of its spans: that is the id Tempo and the trace's other spans know it by, so the
 * gateway's merge can tell it is one trace.
 */
class ZipkinMixedTraceIdsIT {
    @RegisterExtension
    static final PluginUnderTest ZIPKIN = CannedZipkin.plugin();

    @RegisterExtension
    final CannedZipkin zipkin = new CannedZipkin(ZIPKIN);

    private static final String LOW = "48485a3953bb6124";
    private static final String FULL = "463ac35c9f6413ad" + LOW;

    @Test
    void aTraceMixingA64BitIdWithIts128BitForm_isNamedByThe128BitId_whicheverSpanComesLast() throws Exception {
        String root = span(FULL, "a2fb4a1d1a96d312", null, "post /checkout", "checkout", 0, 235_000);
        String child = span(LOW, "b7ad6b7169203331", "a2fb4a1d1a96d312", "charge", "payments", 50_000, 150_000);
        try (Connector connector = zipkin.connect()) {
            for (String answer : new String[] {"[[" + root + "," + child + "]]", "[[" + child + "," + root + "]]"}) {
                zipkin.answer(answer);
                assertThat(((TracesCapability) connector).queryTraces(CannedZipkin.query())).singleElement().satisfies(t -> {
                    assertThat(t.traceId()).isEqualTo(FULL);
                    assertThat(t.rootName()).isEqualTo("post /checkout");
                    assertThat(t.spanCount()).isEqualTo(2);
                    assertThat(t.durationMs()).isEqualTo(235.0);
                });
            }
        }
    }

    @Test
    void aTraceWhoseSpansAllHaveThe64BitId_keepsIt() throws Exception {
        zipkin.answer("[[" + span(LOW, "a2fb4a1d1a96d312", null, "post /checkout", "checkout", 0, 235_000) + "]]");
        try (Connector connector = zipkin.connect()) {
            assertThat(((TracesCapability) connector).queryTraces(CannedZipkin.query())).extracting(TraceSummary::traceId)
                    .containsExactly(LOW);
        }
    }

    private static String span(String traceId, String id, String parentId, String name, String service, long offsetMicros,
            long durationMicros) {
        return """
                {"traceId":"%s","id":"%s",%s"name":"%s","kind":"SERVER","timestamp":%d,"duration":%d,"localEndpoint":{"serviceName":"%s"}}
                """.formatted(traceId, id, parentId == null ? "" : "\"parentId\":\"" + parentId + "\",", name,
                CannedZipkin.START_MICROS + offsetMicros, durationMicros, service).strip();
    }
}
