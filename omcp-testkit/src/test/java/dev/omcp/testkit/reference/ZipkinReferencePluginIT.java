package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.backends.ZipkinServer;
import dev.omcp.testkit.connector.ContractReport;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.SampleQueries;
import dev.omcp.testkit.connector.TestConnectorContext;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The zipkin reference plugin against a real Zipkin server (io.zipkin:zipkin-server 3.6.1). */
@Tag("backend")
class ZipkinReferencePluginIT {
    @RegisterExtension
    static final PluginUnderTest PLUGIN = PluginUnderTest.at(ReferencePlugins.plugin("zipkin")).trustRoot(ReferencePlugins.trustRoot());

    private static final int NEWER_GOOD_SEARCHES = 12;
    private static ZipkinServer zipkin;
    private static Instant base;

    @BeforeAll
    static void startZipkin() {
        zipkin = ZipkinServer.start();
        base = Instant.now().minus(2, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
        long t = base.toEpochMilli() * 1000;
        zipkin.postSpans("""
                [
                  {"traceId":"463ac35c9f6413ad48485a3953bb6124","id":"a2fb4a1d1a96d312","name":"post /checkout","kind":"SERVER",
                   "timestamp":%d,"duration":235000,"localEndpoint":{"serviceName":"checkout"},"tags":{"http.method":"POST"}},
                  {"traceId":"463ac35c9f6413ad48485a3953bb6124","id":"b7ad6b7169203331","parentId":"a2fb4a1d1a96d312","name":"charge",
                   "kind":"SERVER","timestamp":%d,"duration":150000,"localEndpoint":{"serviceName":"payments"}},
                  {"traceId":"5b8efff798038103d269b633813fc60c","id":"eee19b7ec3c1b174","name":"post /checkout","kind":"SERVER",
                   "timestamp":%d,"duration":1240000,"localEndpoint":{"serviceName":"checkout"}},
                  {"traceId":"5b8efff798038103d269b633813fc60c","id":"eee19b7ec3c1b175","parentId":"eee19b7ec3c1b174","name":"charge",
                   "kind":"SERVER","timestamp":%d,"duration":1200000,"localEndpoint":{"serviceName":"payments"},"tags":{"error":"card declined"}},
                  {"traceId":"5b8efff798038103d269b633813fc60c","id":"eee19b7ec3c1b176","parentId":"eee19b7ec3c1b175","name":"call-bank",
                   "kind":"CLIENT","timestamp":%d,"duration":1190000,"localEndpoint":{"serviceName":"payments"}}
                ]
                """.formatted(t, t + 50_000, t + 30_000_000, t + 30_010_000, t + 30_012_000));
        // search: one failed request, then more good ones than errors-only reads of the newest
        StringBuilder search = new StringBuilder("[");
        for (int i = 0; i <= NEWER_GOOD_SEARCHES; i++) {
            search.append(i == 0 ? "" : ",").append("""
                    {"traceId":"5ea4c0de5ea4c0de%016x","id":"%016x","name":"get /search","kind":"SERVER","timestamp":%d,"duration":%d,
                     "localEndpoint":{"serviceName":"search"}%s}""".formatted(0x5ea4c0L + i, 0x5ea4c0L + i, t + 10_000_000L + i * 1_000_000L,
                    20_000 + i, i == 0 ? ",\"tags\":{\"error\":\"index unavailable\"}" : ""));
        }
        zipkin.postSpans(search.append(']').toString());
        // cart: one span reported twice, when it started and when it finished; Zipkin stores and answers both reports
        long cart = t + 40_000_000L;
        zipkin.postSpans("""
                [{"traceId":"c0ffee00c0ffee01","id":"c0ffee00c0ffee01","name":"get /cart","kind":"SERVER","timestamp":%d,
                  "localEndpoint":{"serviceName":"cart"}},
                 {"traceId":"c0ffee00c0ffee01","id":"c0ffee00c0ffee02","parentId":"c0ffee00c0ffee01","name":"load","timestamp":%d,
                  "duration":5000,"localEndpoint":{"serviceName":"cart"}}]""".formatted(cart, cart + 1_000));
        zipkin.postSpans("""
                [{"traceId":"c0ffee00c0ffee01","id":"c0ffee00c0ffee01","name":"get /cart","kind":"SERVER","timestamp":%d,
                  "duration":20000,"localEndpoint":{"serviceName":"cart"}}]""".formatted(cart));
    }

    @AfterAll
    static void stopZipkin() {
        if (zipkin != null) {
            zipkin.close();
        }
    }

    private static TimeRange window() {
        return new TimeRange(base.minus(1, ChronoUnit.MINUTES), Instant.now().plus(1, ChronoUnit.MINUTES));
    }

    private static Connector connect() throws Exception {
        return PLUGIN.verified().factory().create(zipkin.source("zipkin"), TestConnectorContext.defaults()).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void spec2_3_theContractHoldsAgainstARealZipkin() {
        ContractReport report = PLUGIN.verified().checkContract(zipkin.source("zipkin"), SampleQueries.of("checkout", window()));
        report.assertConforms();
        assertThat(report.passed()).as("its requests were counted, all through the context's client")
                .anyMatch(line -> line.matches("every backend request went through context\\.httpClient\\(\\) \\([1-9]\\d* of \\d+\\)"));
    }

    @Test
    void summarisesTracesFromTheirSpans() throws Exception {
        try (Connector connector = connect()) {
            List<TraceSummary> traces = ((TracesCapability) connector).queryTraces(new TraceQuery("checkout", window(), Optional.empty(), 10, false));
            assertThat(traces).extracting(TraceSummary::traceId).containsExactly("5b8efff798038103d269b633813fc60c", "463ac35c9f6413ad48485a3953bb6124");
            TraceSummary failed = traces.get(0);
            assertThat(failed.rootName()).isEqualTo("post /checkout");
            assertThat(failed.rootService()).isEqualTo("checkout");
            assertThat(failed.spanCount()).isEqualTo(3);
            assertThat(failed.hasError()).isTrue();
            assertThat(failed.durationMs()).isEqualTo(1240.0);
            assertThat(failed.start()).isEqualTo(base.plusSeconds(30));
            assertThat(traces.get(1).hasError()).isFalse();
            assertThat(traces.get(1).spanCount()).isEqualTo(2);
        }
    }

    @Test
    void aSpanReportedInTwoFragments_countsOnce_asZipkinsOwnUiShowsIt() throws Exception {
        try (Connector connector = connect()) {
            List<TraceSummary> traces = ((TracesCapability) connector)
                    .queryTraces(new TraceQuery("cart", window(), Optional.empty(), 10, false));
            assertThat(traces).singleElement().satisfies(trace -> {
                assertThat(trace.spanCount()).isEqualTo(2);
                assertThat(trace.rootName()).isEqualTo("get /cart");
                assertThat(trace.durationMs()).isEqualTo(20.0);
            });
        }
    }

    @Test
    void errorsOnly_keepsTracesWithAFailedSpanInAnyService() throws Exception {
        try (Connector connector = connect()) {
            List<TraceSummary> traces = ((TracesCapability) connector).queryTraces(new TraceQuery("checkout", window(), Optional.empty(), 10, true));
            assertThat(traces).extracting(TraceSummary::traceId).containsExactly("5b8efff798038103d269b633813fc60c");
        }
    }

    @Test
    void errorsOnly_findsAFailureOfTheServiceItself_behindMoreGoodTracesThanItReads() throws Exception {
        try (Connector connector = connect()) {
            var traces = (TracesCapability) connector;
            assertThat(traces.queryTraces(new TraceQuery("search", window(), Optional.empty(), 1, false)))
                    .extracting(TraceSummary::hasError).containsExactly(false);

            List<TraceSummary> failed = traces.queryTraces(new TraceQuery("search", window(), Optional.empty(), 1, true));

            // 12 good traces are newer than the failed one, more than the 5 x limit newest traces errors-only
            // reads to find failures downstream: Zipkin itself found this one
            assertThat(failed).extracting(TraceSummary::traceId).containsExactly("5ea4c0de5ea4c0de%016x".formatted(0x5ea4c0L));
            assertThat(failed.getFirst().hasError()).isTrue();
        }
    }

    @Test
    void listsTheServicesZipkinKnows() throws Exception {
        try (Connector connector = connect()) {
            assertThat(((ServiceListingCapability) connector).listServices()).extracting(ServiceInfo::name)
                    .containsExactly("cart", "checkout", "payments", "search");
        }
    }

    @Test
    void servicesCallingEachOther_becomeCallsEdgesFromZipkinsDependencyLinks() throws Exception {
        try (Connector connector = connect()) {
            Topology topology = ((TopologyCapability) connector).topology("");
            assertThat(topology.edges()).containsExactly(new TopologyEdge("service/checkout", "service/payments", Relation.CALLS));
            assertThat(topology.nodes()).extracting(TopologyNode::id).containsExactly("service/checkout", "service/payments");
        }
    }

    @Test
    void anUnreachableZipkinIsUnavailableAndDownInHealth() throws Exception {
        SourceConfig nowhere = new SourceConfig("zipkin", "zipkin", "http://127.0.0.1:1", "", JsonValue.EMPTY_JSON_OBJECT);
        try (Connector connector = PLUGIN.verified().factory().create(nowhere, TestConnectorContext.withTimeout(Duration.ofSeconds(2)))
                .toCompletableFuture().get(10, TimeUnit.SECONDS)) {
            assertThat(connector.health().up()).isFalse();
            assertThatThrownBy(() -> ((TracesCapability) connector).queryTraces(new TraceQuery("checkout", window(), Optional.empty(), 10, false)))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE));
        }
    }
}
