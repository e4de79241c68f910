package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.connector.ContractReport;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.SampleQueries;
import dev.omcp.testkit.connector.TestConnectorContext;
import dev.omcp.testkit.fakes.TempoFake;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tempo reference plugin, loaded and verified like the gateway does, against the recorded Tempo fake. */
class TempoReferencePluginIT {
    @RegisterExtension
    static final PluginUnderTest PLUGIN = PluginUnderTest.at(ReferencePlugins.plugin("tempo")).trustRoot(ReferencePlugins.trustRoot());

    private final TempoFake tempo = TempoFake.start();

    @AfterEach
    void stop() {
        tempo.close();
    }

    private Connector connect(Duration timeout) throws Exception {
        return PLUGIN.verified().factory().create(tempo.source("tempo"), TestConnectorContext.withTimeout(timeout))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static TraceQuery query(String service, boolean errorsOnly, Optional<String> filter) {
        return new TraceQuery(service, TempoFake.window(), filter, 20, errorsOnly);
    }

    @Test
    void spec2_3_theContractHoldsAgainstTheRecording() {
        ContractReport report = PLUGIN.verified().checkContract(tempo.source("tempo"), SampleQueries.of("checkout", TempoFake.window()));
        report.assertConforms();
        assertThat(report.passed()).as("its requests were counted, all through the context's client")
                .anyMatch(line -> line.matches("every backend request went through context\\.httpClient\\(\\) \\([1-9]\\d* of \\d+\\)"));
    }

    @Test
    void oneTraceQLSearchAnswers_whenTempoSaysEachTracesSpanAndErrorCounts() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            List<TraceSummary> traces = ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty()));
            assertCheckoutTraces(traces);
            TempoFake.Request search = tempo.requests().stream().filter(r -> r.path().equals("/api/search")).findFirst().orElseThrow();
            assertThat(search.query()).containsEntry("q", "{ resource.service.name = \"checkout\" }")
                    .containsEntry("start", Long.toString(TempoFake.window().start().getEpochSecond()))
                    .containsEntry("end", Long.toString(TempoFake.window().end().getEpochSecond()))
                    .containsEntry("limit", "20");
            assertThat(tempo.requests()).as("serviceStats made every trace fetch unnecessary").extracting(TempoFake.Request::path)
                    .containsExactly("/api/search");
        }
    }

    @Test
    void aTempoBefore2_3_hasEachFoundTraceFetched_withTheSameAnswer() throws Exception {
        tempo.withoutServiceStats();
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertCheckoutTraces(((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())));
            assertThat(tempo.requests()).filteredOn(r -> r.path().startsWith("/api/traces/")).extracting(TempoFake.Request::path)
                    .containsExactlyInAnyOrder("/api/traces/0af7651916cd43dd8448eb211c80319c", "/api/traces/4bf92f3577b34da6a3ce929d0e0e4736");
        }
    }

    @Test
    void serviceStatsThatAreNotSaneCounts_areNotTrusted_theTraceIsFetchedInstead() throws Exception {
        tempo.serviceStats("0af7651916cd43dd8448eb211c80319c", "{\"checkout\":{\"spanCount\":-4}}")
                .serviceStats("4bf92f3577b34da6a3ce929d0e0e4736", "{\"checkout\":{\"spanCount\":1,\"errorCount\":7}}");
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertCheckoutTraces(((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())));
            assertThat(tempo.requests()).filteredOn(r -> r.path().startsWith("/api/traces/")).hasSize(2);
        }
        tempo.serviceStats("0af7651916cd43dd8448eb211c80319c", "\"lots\"")
                .serviceStats("4bf92f3577b34da6a3ce929d0e0e4736", "{\"checkout\":{\"spanCount\":\"99999999999999999999\"}}");
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertCheckoutTraces(((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())));
            assertThat(tempo.requests()).filteredOn(r -> r.path().startsWith("/api/traces/")).hasSize(4);
        }
    }

    @Test
    void protobufsLeftOutZeroCounts_readAsZero() throws Exception {
        tempo.serviceStats("0af7651916cd43dd8448eb211c80319c", "{\"checkout\":{\"spanCount\":1},\"payments\":{\"spanCount\":\"2\",\"errorCount\":2}}");
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertCheckoutTraces(((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())));
            assertThat(tempo.requests()).filteredOn(r -> r.path().startsWith("/api/traces/")).isEmpty();
        }
    }

    private static void assertCheckoutTraces(List<TraceSummary> traces) {
        assertThat(traces).extracting(TraceSummary::traceId)
                .containsExactly("0af7651916cd43dd8448eb211c80319c", "4bf92f3577b34da6a3ce929d0e0e4736");
        TraceSummary failed = traces.get(0);
        assertThat(failed.rootName()).isEqualTo("POST /checkout");
        assertThat(failed.rootService()).isEqualTo("checkout");
        assertThat(failed.spanCount()).isEqualTo(3);
        assertThat(failed.hasError()).isTrue();
        assertThat(failed.durationMs()).isEqualTo(1240.0);
        assertThat(failed.start()).isEqualTo(Instant.parse("2026-01-15T10:20:00.500Z"));
        TraceSummary ok = traces.get(1);
        assertThat(ok.spanCount()).isEqualTo(4);
        assertThat(ok.hasError()).isFalse();
    }

    @Test
    void aTraceWhoseRootSpanTempoHasNotReceived_hasNoRootService_notTemposPlaceholder() throws Exception {
        tempo.hitFields("4bf92f3577b34da6a3ce929d0e0e4736",
                "{\"rootServiceName\":\"<root span not yet received>\",\"rootTraceName\":null}");
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertThat(((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())))
                    .filteredOn(t -> t.traceId().equals("4bf92f3577b34da6a3ce929d0e0e4736")).singleElement().satisfies(t -> {
                        assertThat(t.rootService()).as("unknown, so another source's root can stand in the merge").isEmpty();
                        assertThat(t.rootName()).isEmpty();
                        assertThat(t.spanCount()).isEqualTo(4);
                    });
        }
        tempo.withoutServiceStats();
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertThat(((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())))
                    .filteredOn(t -> t.traceId().equals("4bf92f3577b34da6a3ce929d0e0e4736")).singleElement().satisfies(t -> {
                        assertThat(t.rootService()).as("the fetched trace has its root by now").isEqualTo("checkout");
                        assertThat(t.rootName()).isEqualTo("POST /checkout");
                    });
        }
    }

    @Test
    void aWindowEndingWithinASecond_isSearchedToTheEndOfThatSecond_soItsNewestTraceIsNotCutOff() throws Exception {
        // 0af7651916cd43dd8448eb211c80319c starts at 10:20:00.500, inside a window that ends at 10:20:00.600
        TimeRange window = new TimeRange(Instant.parse("2026-01-15T10:00:00Z"), Instant.parse("2026-01-15T10:20:00.600Z"));
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertThat(((TracesCapability) connector).queryTraces(new TraceQuery("checkout", window, Optional.empty(), 20, false)))
                    .extracting(TraceSummary::traceId).contains("0af7651916cd43dd8448eb211c80319c");
            assertThat(tempo.requests().getFirst().query()).containsEntry("start", Long.toString(window.start().getEpochSecond()))
                    .containsEntry("end", Long.toString(Instant.parse("2026-01-15T10:20:01Z").getEpochSecond()));
        }
    }

    @Test
    void theFoundTracesAreFetchedInParallel() throws Exception {
        tempo.withoutServiceStats();
        try (Connector connector = connect(Duration.ofSeconds(10))) {
            tempo.stall("/api/traces/");
            CompletableFuture<List<TraceSummary>> result = CompletableFuture.supplyAsync(() -> {
                try {
                    return ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty()));
                } catch (ConnectorException e) {
                    throw new IllegalStateException(e);
                }
            }, command -> Thread.ofVirtual().start(command));
            assertThat(tempo.awaitRequests("/api/traces/", 2, Duration.ofSeconds(5)))
                    .as("both trace fetches are in flight while the first one is still unanswered").isTrue();
            tempo.release();
            assertThat(result.get(10, TimeUnit.SECONDS)).hasSize(2);
        }
    }

    @Test
    void errorsOnlyAndFiltersBecomeTraceQL() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            List<TraceSummary> failed = ((TracesCapability) connector).queryTraces(query("checkout", true, Optional.of("span.http.status_code >= 500")));
            assertThat(failed).extracting(TraceSummary::traceId).containsExactly("0af7651916cd43dd8448eb211c80319c");
            ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.of("{ span.db.system = \"postgresql\" }")));
            assertThat(tempo.requests()).filteredOn(r -> r.path().equals("/api/search")).extracting(r -> r.query().get("q")).containsExactly(
                    "{ resource.service.name = \"checkout\" && (span.http.status_code >= 500) } && { status = error }",
                    "{ resource.service.name = \"checkout\" } && ({ span.db.system = \"postgresql\" })");
        }
    }

    @Test
    void aSpansetFilterIsParenthesised_soItsOrCannotReachOtherServicesTraces() throws Exception {
        // TraceQL's && and || bind equally, left to right: unparenthesised, "|| { b }" would match b in any service's traces
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            TracesCapability traces = (TracesCapability) connector;
            traces.queryTraces(query("checkout", true, Optional.of("{ span.http.status_code >= 500 } || { name = \"a|b\" }")));
            traces.queryTraces(query("checkout", false,
                    Optional.of("{ span.db.system = \"postgresql\" } || { kind = client } | count() > 2")));
            traces.queryTraces(query("checkout", false, Optional.of("span.http.route = \"{id}\" || span.http.route = \"/\"")));
            assertThat(tempo.requests()).filteredOn(r -> r.path().equals("/api/search")).extracting(r -> r.query().get("q"))
                    .containsExactly(
                    "{ resource.service.name = \"checkout\" } && ({ span.http.status_code >= 500 } || { name = \"a|b\" })"
                            + " && { status = error }",
                    "{ resource.service.name = \"checkout\" } && ({ span.db.system = \"postgresql\" } || { kind = client }) | count() > 2",
                    "{ resource.service.name = \"checkout\" && (span.http.route = \"{id}\" || span.http.route = \"/\") }");
        }
    }

    @Test
    void serviceNamesAreEscapedInTraceQL() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertThat(((TracesCapability) connector).queryTraces(query("shop/\"quoted\\", false, Optional.empty()))).isEmpty();
            assertThat(tempo.requests().getFirst().query().get("q")).isEqualTo("{ resource.service.name = \"shop/\\\"quoted\\\\\" }");
        }
    }

    @Test
    void theOlderInstrumentationLibraryShapeIsRead() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertThat(((TracesCapability) connector).queryTraces(query("cart", false, Optional.empty()))).singleElement()
                    .satisfies(t -> assertThat(t.spanCount()).isEqualTo(1));
        }
    }

    @Test
    void listsServices() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertThat(((ServiceListingCapability) connector).listServices()).extracting(ServiceInfo::name).containsExactly("cart", "checkout", "payments");
        }
    }

    @Test
    void backendErrorsBecomeTypedFailuresWithTheBackendsMessage() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            TracesCapability traces = (TracesCapability) connector;
            tempo.fail("/api/search", 500, "too many outstanding requests");
            assertThatThrownBy(() -> traces.queryTraces(query("checkout", false, Optional.empty())))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE))
                    .hasMessage("Tempo answered HTTP 500: too many outstanding requests");
        }
    }

    @Test
    void aBadTraceQLIsABadQuery() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            tempo.fail("/api/search", 400, "invalid TraceQL query: parse error at line 1, col 40: syntax error: unexpected IDENTIFIER");
            assertThatThrownBy(() -> ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.of("nonsense"))))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY))
                    .hasMessageContaining("parse error at line 1, col 40");
        }
    }

    @Test
    void aFailedTraceFetch_failsTheQueryWithTheReason() throws Exception {
        tempo.withoutServiceStats();
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            tempo.fail("/api/traces/4bf92f3577b34da6a3ce929d0e0e4736", 500, "failed to read block");
            assertThatThrownBy(() -> ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())))
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE))
                    .hasMessage("fetching a found trace failed: Tempo answered HTTP 500: failed to read block");
        }
    }

    @Test
    void aTraceGoneBetweenSearchAndFetch_isLeftOut_andTheOthersAreStillAnswered() throws Exception {
        tempo.withoutServiceStats();
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            tempo.fail("/api/traces/4bf92f3577b34da6a3ce929d0e0e4736", 404, "trace not found");
            List<TraceSummary> traces = ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty()));
            assertThat(traces).singleElement().satisfies(t -> {
                assertThat(t.traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
                assertThat(t.spanCount()).isEqualTo(3);
                assertThat(t.hasError()).isTrue();
            });
            tempo.fail("/api/traces/0af7651916cd43dd8448eb211c80319c", 404, "trace not found");
            assertThat(((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())))
                    .as("every found trace gone: nothing to show, not a failure").isEmpty();
        }
    }

    @Test
    void aTraceGoneBetweenSearchAndFetch_isNamedInAWarning_soAnAgentKnowsWhyItIsMissing() throws Exception {
        tempo.withoutServiceStats();
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            TraceResult whole = ((TracesCapability) connector).searchTraces(query("checkout", false, Optional.empty()));
            assertThat(whole.traces()).hasSize(2);
            assertThat(whole.warnings()).as("nothing gone, nothing said").isEmpty();

            tempo.fail("/api/traces/4bf92f3577b34da6a3ce929d0e0e4736", 404, "trace not found");
            TraceResult oneGone = ((TracesCapability) connector).searchTraces(query("checkout", false, Optional.empty()));
            assertThat(oneGone.traces()).extracting(TraceSummary::traceId).containsExactly("0af7651916cd43dd8448eb211c80319c");
            assertThat(oneGone.warnings()).containsExactly("1 trace the search found was gone when fetched "
                    + "(HTTP 404: expired or compacted away since) and left out: 4bf92f3577b34da6a3ce929d0e0e4736");

            tempo.fail("/api/traces/0af7651916cd43dd8448eb211c80319c", 404, "trace not found");
            TraceResult allGone = ((TracesCapability) connector).searchTraces(query("checkout", false, Optional.empty()));
            assertThat(allGone.traces()).isEmpty();
            assertThat(allGone.warnings()).singleElement().asString()
                    .startsWith("2 traces the search found were gone when fetched")
                    .contains("4bf92f3577b34da6a3ce929d0e0e4736").contains("0af7651916cd43dd8448eb211c80319c")
                    .doesNotContain("more");
        }
    }

    @Test
    void aSearchApiThatIsNotThere_isASourceError_sayingWhereToPointTheUrl() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            tempo.fail("/api/search", 404, "404 page not found");
            assertThatThrownBy(() -> ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())))
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY))
                    .hasMessageStartingWith("Tempo answered HTTP 404 to its search API (api/search): "
                            + "point the source URL at Tempo's HTTP API");
        }
    }

    @Test
    void aSlowBackendIsATimeout() throws Exception {
        try (Connector connector = connect(Duration.ofMillis(300))) {
            tempo.stall("/api/search");
            assertThatThrownBy(() -> ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT))
                    .hasMessage("Tempo did not answer within 300 ms");
        }
    }

    @Test
    void anAnswerThatIsNotJson_isABadResponse() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            tempo.garble("/api/search");
            assertThatThrownBy(() -> ((TracesCapability) connector).queryTraces(query("checkout", false, Optional.empty())))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE));
        }
    }

    @Test
    void healthFollowsReady() throws Exception {
        try (Connector connector = connect(Duration.ofSeconds(5))) {
            assertThat(connector.health().up()).isTrue();
            tempo.fail("/ready", 503, "Ingester check failed");
            assertThat(connector.health().up()).isFalse();
            assertThat(connector.health().message()).isEqualTo("Tempo answered HTTP 503: Ingester check failed");
        }
    }

    @Test
    void aSourceUrlThatIsNotHttp_failsCreation() {
        var source = new dev.omcp.sdk.connector.SourceConfig("tempo", "tempo", "ftp://tempo:21", "", jakarta.json.JsonValue.EMPTY_JSON_OBJECT);
        assertThatThrownBy(() -> PLUGIN.verified().factory().create(source, TestConnectorContext.defaults()).toCompletableFuture().join())
                .hasRootCauseInstanceOf(ConnectorException.class)
                .hasMessageContaining("must be http or https");
    }
}
