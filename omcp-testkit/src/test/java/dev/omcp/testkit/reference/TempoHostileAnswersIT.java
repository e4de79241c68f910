package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.TestConnectorContext;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tempo reference plugin against answers no healthy Tempo gives (spans without times, a
 * negative or non-numeric {@code durationMs}, entries of the wrong JSON type, a trace id that is a
 * path) and against Tempo's tag-values API, which without a window lists only its live store. A
 * canned loopback server answers each path with the body a test sets.
 */
class TempoHostileAnswersIT {
    @RegisterExtension
    static final PluginUnderTest TEMPO = PluginUnderTest.at(ReferencePlugins.plugin("tempo")).trustRoot(ReferencePlugins.trustRoot());

    private static final String ID = "0af7651916cd43dd8448eb211c80319c";
    private static final long START_NANOS = Instant.parse("2026-01-15T10:20:00Z").toEpochMilli() * 1_000_000L;
    private static final Instant NOW = Instant.parse("2026-01-15T10:35:00.250Z");

    private HttpServer tempo;
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        tempo = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        tempo.createContext("/", this::answer);
        tempo.start();
    }

    @AfterEach
    void stop() {
        tempo.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String query = exchange.getRequestURI().getRawQuery();
            String path = exchange.getRequestURI().getPath();
            requests.add(path + (query == null ? "" : "?" + query));
            String body = answers.get(path);
            int status = body == null ? 404 : 200;
            if (path.startsWith("/api/search/tag/") && query != null && answers.containsKey("refuse windows")) {
                status = 400;
                body = "range specified by start and end exceeds 12h0m0s";
            }
            byte[] bytes = (body == null ? "404 page not found" : body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", status == 200 ? "application/json" : "text/plain");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** A search answering one hit of {@link #ID} without serviceStats (so the trace is fetched), plus {@code fields}. */
    private void searchHit(String fields) {
        answers.put("/api/search", """
                {"traces":[{"traceID":"%s","rootServiceName":"checkout","rootTraceName":"POST /checkout"%s}]}
                """.formatted(ID, fields.isEmpty() ? "" : "," + fields));
    }

    private void trace(String spans) {
        answers.put("/api/traces/" + ID, """
                {"batches":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"checkout"}}]},
                 "scopeSpans":[{"spans":[%s]}]}]}
                """.formatted(spans));
    }

    private static String span(String id, String parent, Long startOffsetMs, Long endOffsetMs) {
        return "{\"spanId\":\"" + id + "\",\"parentSpanId\":\"" + parent + "\",\"name\":\"op\""
                + (startOffsetMs == null ? "" : ",\"startTimeUnixNano\":\"" + (START_NANOS + startOffsetMs * 1_000_000L) + "\"")
                + (endOffsetMs == null ? "" : ",\"endTimeUnixNano\":\"" + (START_NANOS + endOffsetMs * 1_000_000L) + "\"") + "}";
    }

    @Test
    void aSpanWithoutAStartTime_doesNotStretchTheTraceTo1970() throws Exception {
        searchHit("\"startTimeUnixNano\":\"" + START_NANOS + "\"");
        trace(span("AAAAAAAAAAE=", "", 0L, 240L) + "," + span("AAAAAAAAAAI=", "AAAAAAAAAAE=", null, 120L));
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).as("from the spans that have times").isEqualTo(240.0);
            assertThat(t.spanCount()).isEqualTo(2);
        });
    }

    @Test
    void aSpanDatedJustAfter1970_doesNotMakeTheFetchedTrace56YearsLong_andTheSlowest() throws Exception {
        searchHit("\"startTimeUnixNano\":\"" + START_NANOS + "\"");
        // 1000 ns is no OTLP "unset", yet no span of a trace of 2026 started then: beyond Tempo's own uint32 milliseconds
        // (as the search hit's durationMs and the zipkin plugin bound it) the spans tell no duration
        trace(span("AAAAAAAAAAE=", "", 0L, 240L) + ",{\"spanId\":\"AAAAAAAAAAI=\",\"parentSpanId\":\"AAAAAAAAAAE=\",\"name\":\"op\","
                + "\"startTimeUnixNano\":\"1000\",\"endTimeUnixNano\":\"" + (START_NANOS + 120_000_000L) + "\"}");
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.spanCount()).isEqualTo(2);
        });
    }

    @Test
    void aTraceWhoseSpansHaveNoTimes_hasAnUnknownDurationAndStart_notOneFrom1970() throws Exception {
        searchHit("");
        trace(span("AAAAAAAAAAE=", "", null, null) + "," + span("AAAAAAAAAAI=", "AAAAAAAAAAE=", null, 120L));
        assertThat(onlyTrace()).satisfies(t -> {
            assertThat(t.durationMs()).isNaN();
            assertThat(t.start()).isEqualTo(TraceSummary.UNKNOWN_START);
            assertThat(t.spanCount()).isEqualTo(2);
        });
    }

    @Test
    void aSpanTempoAnswersTwice_countsOnce_soItsCopyOfTheTraceDoesNotSeemTheFullest() throws Exception {
        // the same span id twice (a span ingested twice, not yet deduplicated by compaction): one span, not two;
        // spans without an id cannot be told apart, so each counts
        searchHit("\"startTimeUnixNano\":\"" + START_NANOS + "\"");
        trace(span("AAAAAAAAAAE=", "", 0L, 240L) + "," + span("AAAAAAAAAAI=", "AAAAAAAAAAE=", 10L, 120L) + ","
                + span("AAAAAAAAAAI=", "AAAAAAAAAAE=", 10L, 120L) + ",{\"name\":\"no id\"},{\"spanId\":\"\",\"name\":\"empty id\"}");
        assertThat(onlyTrace().spanCount()).isEqualTo(4);
    }

    @Test
    void aNotReadyAnswer_isShownOnOneLine_andCutWithoutSplittingACharacter() throws Exception {
        answers.put("/ready", "Ingester not ready:\nwaiting for 15s after being ready\r\nlevel=error msg=forged");
        try (Connector connector = connect()) {
            String message = connector.health().message();
            assertThat(message).startsWith("Tempo is not ready: Ingester not ready:").doesNotContain("\n", "\r")
                    .contains("waiting for 15s after being ready level=error msg=forged");
        }
        // a character outside the BMP (two UTF-16 units) right where the answer is cut
        answers.put("/ready", "x".repeat(199) + Character.toString(0x1F600) + "z".repeat(50));
        try (Connector connector = connect()) {
            String message = connector.health().message();
            assertThat(message.codePoints().noneMatch(c -> Character.getType(c) == Character.SURROGATE))
                    .as("no half character: %s", message).isTrue();
            assertThat(message).endsWith("x…").doesNotContain("z");
        }
    }

    /** A span named {@code name} starting {@code startOffsetMs} after the hit and lasting 10 ms. */
    private static String named(String name, String id, String parent, long startOffsetMs) {
        return span(id, parent, startOffsetMs, startOffsetMs + 10).replace("\"name\":\"op\"", "\"name\":\"" + name + "\"");
    }

    /** The root name of the trace fetched for a hit that names no root, so the plugin reads it from the spans. */
    private String rootOf(String spans) throws Exception {
        answers.put("/api/search", "{\"traces\":[{\"traceID\":\"" + ID + "\",\"startTimeUnixNano\":\"" + START_NANOS + "\"}]}");
        trace(spans);
        return onlyTrace().rootName();
    }

    @Test
    void aHitWithoutARoot_isRootedAtTheEarliestSpanWithoutAParent_notTheLastOneRead() throws Exception {
        // Tempo writes spans in no particular order; a trace whose root has not arrived may hold several parentless spans
        assertThat(rootOf(named("GET /late", "AAAAAAAAAAM=", "", 50) + "," + named("POST /checkout", "AAAAAAAAAAE=", "", 0)
                + "," + named("charge", "AAAAAAAAAAI=", "AAAAAAAAAAE=", 5))).isEqualTo("POST /checkout");
        assertThat(rootOf(named("POST /checkout", "AAAAAAAAAAE=", "", 0) + "," + named("GET /late", "AAAAAAAAAAM=", "", 50)))
                .isEqualTo("POST /checkout");
        assertThat(rootOf(named("first", "AAAAAAAAAAE=", "", 0) + "," + named("second", "AAAAAAAAAAM=", "", 0)))
                .as("a tie goes to the span read first").isEqualTo("first");
        assertThat(rootOf(span("AAAAAAAAAAM=", "", null, 30L).replace("\"op\"", "\"untimed\"") + ","
                + named("POST /checkout", "AAAAAAAAAAE=", "", 20))).as("a span without a start is not the earliest")
                .isEqualTo("POST /checkout");
    }

    @Test
    void aParentIdIsNone_onlyWhenEmptyOrAllZeroInHexOrBase64_notWhenItMerelyHoldsTheLettersOfAZeroId() throws Exception {
        // OTLP/JSON writes span ids in hex, Tempo's API answers in base64 (protobuf's JSON for bytes): "AAAAAAAAAAA=" is 8 zero
        // bytes in base64, while the 16 hex digits AAAAAAAAAAAAAAAA are a real parent
        for (String none : List.of("", "0000000000000000", "00", "AAAAAAAAAAA=", "AAAAAAAAAAAAAAAAAAAAAA==")) {
            assertThat(rootOf(named("POST /checkout", "AAAAAAAAAAE=", none, 10) + ","
                    + named("charge", "AAAAAAAAAAI=", "AAAAAAAAAAE=", 20)))
                    .as("parentSpanId \"%s\"", none).isEqualTo("POST /checkout");
        }
        for (String parent : List.of("AAAAAAAAAAAAAAAA", "aaaaaaaaaaaaaaaa", "A=0A", "AAAAAAAAAAE=", "0000000000000001")) {
            // the child's clock runs early: were its parent read as none, it would be the earliest parentless span
            assertThat(rootOf(named("POST /checkout", "AAAAAAAAAAE=", "", 10) + "," + named("charge", "AAAAAAAAAAI=", parent, 0)))
                    .as("parentSpanId \"%s\"", parent).isEqualTo("POST /checkout");
        }
    }

    @Test
    void aNegativeDurationMs_isNoDuration_notAPlausibleZero() throws Exception {
        searchHit("\"durationMs\":-5,\"serviceStats\":{\"checkout\":{\"spanCount\":2}}");
        assertThat(onlyTrace().durationMs()).as("with serviceStats").isNaN();
        searchHit("\"durationMs\":-5");
        trace(span("AAAAAAAAAAE=", "", 0L, 240L));
        assertThat(onlyTrace().durationMs()).as("fetched").isNaN();
    }

    @Test
    void aDurationMsBeyondTemposUint32_isNoDuration_notCenturiesRankedTheSlowest() throws Exception {
        String stats = ",\"serviceStats\":{\"checkout\":{\"spanCount\":2}}";
        for (String huge : new String[] {"4294967296", "1e300", "\"999999999999999999\""}) {
            searchHit("\"durationMs\":" + huge + stats);
            assertThat(onlyTrace().durationMs()).as(huge).isNaN();
        }
        searchHit("\"durationMs\":4294967295" + stats);
        assertThat(onlyTrace().durationMs()).as("the largest uint32").isEqualTo(4294967295.0);
    }

    @Test
    void aDurationMsThatIsNotANumber_isABadResponseNamingIt() throws Exception {
        trace(span("AAAAAAAAAAE=", "", 0L, 240L));
        String stats = ",\"serviceStats\":{\"checkout\":{\"spanCount\":2}}";
        for (String hit : new String[] {"\"durationMs\":\"slow\"", "\"durationMs\":\"slow\"" + stats}) {
            searchHit(hit);
            assertBadResponse("'durationMs' is not a number");
        }
        searchHit("\"durationMs\":\"240\"");
        assertThat(onlyTrace().durationMs()).as("protobuf's JSON may quote an integer").isEqualTo(240.0);
    }

    @Test
    void traceEntriesOfTheWrongType_areABadResponseNamingTheField() throws Exception {
        searchHit("");
        trace("\"not a span\"");
        assertBadResponse("an entry of 'spans' that is not a JSON object");
        answers.put("/api/traces/" + ID, "{\"batches\":[7]}");
        assertBadResponse("an entry of 'batches' that is not a JSON object");
        answers.put("/api/traces/" + ID, "{\"resourceSpans\":[{\"resource\":\"checkout\",\"scopeSpans\":[]}]}");
        assertBadResponse("a 'resource' that is not a JSON object");
        answers.put("/api/traces/" + ID, "{\"batches\":[{\"instrumentationLibrarySpans\":[[]]}]}");
        assertBadResponse("an entry of 'instrumentationLibrarySpans' that is not a JSON object");
        trace("{\"spanId\":\"AAAAAAAAAAE=\",\"status\":\"error\"}");
        assertBadResponse("a 'status' that is not a JSON object");
    }

    @Test
    void aTraceIdThatIsNotOne_isABadResponse_andNeverBecomesAFetchPath() throws Exception {
        answers.put("/api/search", "{\"traces\":[{\"traceID\":\"../../metrics\",\"rootServiceName\":\"checkout\"}]}");
        answers.put("/metrics", "{\"batches\":[]}");
        assertBadResponse("'traceID' that is not a trace id");
        assertThat(requests).noneMatch(r -> r.startsWith("/metrics") || r.startsWith("/api/traces"));
    }

    @Test
    void aTraceListThatIsNotAList_isABadResponse_notAnEmptyAnswer() throws Exception {
        answers.put("/api/search", "{\"traces\":{\"traceID\":\"" + ID + "\"}}");
        assertBadResponse("Tempo's search answered 'traces' that is not a JSON array");
    }

    @Test
    void hitsWithoutATraceId_areLeftOut_countedInAWarning_whileTheOthersAreAnswered() throws Exception {
        answers.put("/api/search", """
                {"traces":[{"traceID":"%s","rootServiceName":"checkout","serviceStats":{"checkout":{"spanCount":2}}},
                 "not a hit",{"traceID":12345,"rootServiceName":"checkout"},{"rootServiceName":"checkout"},{"traceID":""}]}
                """.formatted(ID));
        try (Connector connector = connect()) {
            TraceResult result = ((TracesCapability) connector).searchTraces(query());
            assertThat(result.traces()).extracting(TraceSummary::traceId).containsExactly(ID);
            assertThat(result.warnings()).containsExactly("4 search hits were left out: not an object, or without a 'traceID' "
                    + "string (a broken answer, or something other than Tempo's search API at the source URL)");
        }
    }

    @Test
    void theServiceList_coversTheLastDay_notOnlyTheLiveStore() throws Exception {
        answers.put("/api/search/tag/service.name/values", "{\"tagValues\":[\"checkout\",\"cart\"]}");
        try (Connector connector = connect()) {
            ServiceListing listing = ((ServiceListingCapability) connector).serviceListing();
            assertThat(listing.services()).extracting(ServiceInfo::name).containsExactly("cart", "checkout");
            assertThat(listing.warnings()).as("nothing was left out").isEmpty();
        }
        assertThat(requests).containsExactly("/api/search/tag/service.name/values?start=" + NOW.minus(Duration.ofDays(1)).getEpochSecond()
                + "&end=" + (NOW.getEpochSecond() + 1));
    }

    @Test
    void aTempoRefusingTheWindow_stillListsItsLiveStoresServices_sayingThatQuieterServicesMayBeMissing() throws Exception {
        answers.put("/api/search/tag/service.name/values", "{\"tagValues\":[{\"type\":\"string\",\"value\":\"checkout\"}]}");
        answers.put("refuse windows", "");
        try (Connector connector = connect()) {
            ServiceListing listing = ((ServiceListingCapability) connector).serviceListing();
            assertThat(listing.services()).extracting(ServiceInfo::name).containsExactly("checkout");
            // the live store holds the last minutes only: a service that sent no trace since is not in the list, and says so
            assertThat(listing.warnings()).containsExactly("Tempo refused the service list's window of the last 24 hours (Tempo "
                    + "answered HTTP 400: range specified by start and end exceeds 12h0m0s), so only the services of its live store "
                    + "(its most recent traces) are listed: a service that sent no trace since may be missing");
        }
        assertThat(requests).hasSize(2).last().isEqualTo("/api/search/tag/service.name/values");
    }

    @Test
    void serviceNamesThatAreNotStrings_areLeftOut_countedInOneWarning_whileTheOthersAreListed() throws Exception {
        // Tempo's v1 API answers strings, its v2 objects with a string 'value'; anything else names no service
        answers.put("/api/search/tag/service.name/values", """
                {"tagValues":["checkout",7,null,{"type":"string","value":"cart"},{"type":"int","value":5},{"type":"string"},
                 ["payments"],true,{"type":"string","value":"search"}]}
                """);
        try (Connector connector = connect()) {
            ServiceListingCapability services = (ServiceListingCapability) connector;
            ServiceListing listing = services.serviceListing();
            assertThat(listing.services()).extracting(ServiceInfo::name).containsExactly("cart", "checkout", "search");
            assertThat(listing.warnings()).containsExactly("Tempo answered service names that are neither strings nor objects with a "
                    + "string 'value' (6); they were left out of the listing (a broken answer, or something other than Tempo's "
                    + "tag-values API at the source URL)");
            assertThat(services.listServices()).isEqualTo(listing.services());
        }
    }

    @Test
    void aServiceListWithoutTagValues_isEmpty_whileTagValuesThatAreNotAList_areABadResponse() throws Exception {
        // protobuf's JSON leaves an empty list out: no services, nothing left out
        answers.put("/api/search/tag/service.name/values", "{}");
        try (Connector connector = connect()) {
            ServiceListing listing = ((ServiceListingCapability) connector).serviceListing();
            assertThat(listing.services()).isEmpty();
            assertThat(listing.warnings()).isEmpty();
        }
        // a 'tagValues' of another type lists nothing readable: failing the source says so, where an empty list would not
        answers.put("/api/search/tag/service.name/values", "{\"tagValues\":{\"checkout\":true}}");
        try (Connector connector = connect()) {
            assertThatThrownBy(((ServiceListingCapability) connector)::serviceListing)
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessage("Tempo's service list answered 'tagValues' that is not a JSON array");
        }
    }

    private TraceSummary onlyTrace() throws Exception {
        try (Connector connector = connect()) {
            List<TraceSummary> traces = ((TracesCapability) connector).queryTraces(query());
            assertThat(traces).hasSize(1);
            return traces.get(0);
        }
    }

    private void assertBadResponse(String message) throws Exception {
        try (Connector connector = connect()) {
            assertThatThrownBy(() -> ((TracesCapability) connector).queryTraces(query()))
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessageContaining(message);
        }
    }

    private static TraceQuery query() {
        TimeRange window = new TimeRange(Instant.parse("2026-01-15T10:00:00Z"), Instant.parse("2026-01-15T10:35:00Z"));
        return new TraceQuery("checkout", window, Optional.empty(), 20, false);
    }

    private Connector connect() throws Exception {
        SourceConfig source = new SourceConfig("tempo", "tempo", "http://127.0.0.1:" + tempo.getAddress().getPort(), "",
                JsonValue.EMPTY_JSON_OBJECT);
        TestConnectorContext defaults = TestConnectorContext.withTimeout(Duration.ofSeconds(10));
        TestConnectorContext context = new TestConnectorContext(defaults.httpClient(), defaults.requestTimeout(),
                Clock.fixed(NOW, ZoneOffset.UTC));
        return TEMPO.verified().factory().create(source, context).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
