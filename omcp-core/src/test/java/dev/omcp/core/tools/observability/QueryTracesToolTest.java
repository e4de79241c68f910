package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.ToolInvocation.call;
import static dev.omcp.core.tools.observability.ToolInvocation.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class QueryTracesToolTest {
    private static final Instant NOW = Instant.parse("2025-03-10T10:00:00Z");
    private final ManualClock clock = new ManualClock(NOW);

    private QueryTracesTool tool(ScriptedSources sources) {
        return new QueryTracesTool(Toolkit.builder(sources.registry(), clock).timeouts(Duration.ofMillis(300), Duration.ofMillis(600)).build());
    }

    private static TraceSummary trace(String id, double ms, boolean error) {
        return new TraceSummary(id, "POST /checkout", "checkout", NOW.minusSeconds(60), ms, 6, error);
    }

    private static TraceSummary trace(String id, double ms, boolean error, Duration ago) {
        return new TraceSummary(id, "POST /checkout", "checkout", NOW.minus(ago), ms, 6, error);
    }

    /** A backend like Zipkin or Tempo: the newest traces of the window, at most as many as it is asked for. */
    private static ScriptedConnector.Answer<TraceQuery, List<TraceSummary>> newestOf(List<TraceSummary> window) {
        return query -> window.stream().sorted(Comparator.comparing(TraceSummary::start).reversed()).limit(query.limit()).toList();
    }

    /**
     * The payments window QA saw: 30 quick good traces in the last minutes, and older ones that matter
     * (two failures and the slowest, 936 ms) behind them.
     */
    private static List<TraceSummary> windowWhereTheTracesThatMatterAreOlder() {
        List<TraceSummary> window = new ArrayList<>();
        IntStream.range(0, 30).forEach(i -> window.add(trace("f" + i, 100 + i, false, Duration.ofSeconds(10 + i * 10))));
        window.add(trace("e1", 400, true, Duration.ofMinutes(10)));
        window.add(trace("e2", 300, true, Duration.ofMinutes(11)));
        window.add(trace("51", 936, false, Duration.ofMinutes(12)));
        return window;
    }

    /** The cluster of the demo: payments runs in namespace shop, as a Kubernetes service and a deployment. */
    private static ScriptedConnector kubernetes() {
        return new ScriptedConnector().topology(new Topology(List.of(
                new TopologyNode("deployment/shop/payments", "deployment", "payments", "shop", Map.of()),
                new TopologyNode("service/shop/payments", "service", "payments", "shop", Map.of()),
                new TopologyNode("service/shop/checkout", "service", "checkout", "shop", Map.of())), List.of()));
    }

    /** A traces backend like Zipkin: it knows services by their bare names and has traces of payments only. */
    private static ScriptedConnector zipkinKnowingPayments() {
        return new ScriptedConnector().services("checkout", "payments")
                .traces(query -> query.service().equals("payments") ? List.of(trace("1", 100, true)) : List.of());
    }

    private static String id(String shortId) {
        return "0".repeat(32 - shortId.length()) + shortId;
    }

    private static List<String> traceIds(JsonObject result) {
        return result.getJsonArray("traces").stream().map(t -> t.asJsonObject().getString("traceId")).toList();
    }

    @Test
    void spec4_4_defaults_windowOf15Minutes_limit50_allTraces() {
        ScriptedConnector zipkin = new ScriptedConnector().traces(List.of());
        JsonObject result = structured(call(tool(new ScriptedSources().add("zipkin", zipkin)), "{\"service\":\"checkout\"}"));
        TraceQuery asked = zipkin.traceQueries.getFirst();
        assertThat(asked.range().start()).isEqualTo(NOW.minus(Duration.ofMinutes(15)));
        assertThat(asked.range().end()).isEqualTo(NOW);
        // each source is asked for more than the 50 shown, so the ranking covers the window
        assertThat(asked.limit()).isEqualTo(QueryTracesTool.FETCH_PER_SOURCE);
        assertThat(asked.errorsOnly()).isFalse();
        assertThat(asked.filter()).isEmpty();
        assertThat(result.getString("service")).isEqualTo("checkout");
        assertThat(result.getString("duration")).isEqualTo("15m");
    }

    @Test
    void spec4_4_mergesEverySource_deDuplicates_ranksErrorsFirstThenSlowest() {
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(List.of(
                        trace("00000000000000000000000000000a01", 120, false),
                        trace("00000000000000000000000000000b02", 900, false))))
                .add("zipkin", new ScriptedConnector().traces(List.of(
                        trace("a01", 120, true), // the same trace as Tempo's, 64-bit id, with an error span
                        trace("c03", 3000, false))));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"checkout\",\"duration\":\"1h\"}"));
        assertThat(traceIds(result)).containsExactly("a01", "c03", "00000000000000000000000000000b02");
        assertThat(result.getJsonArray("traces").getJsonObject(0).getBoolean("hasError")).isTrue();
        JsonObject summary = result.getJsonObject("summary");
        assertThat(summary.getInt("total")).isEqualTo(3);
        assertThat(summary.getInt("errorCount")).isEqualTo(1);
        assertThat(summary.getJsonNumber("p50DurationMs").doubleValue()).isEqualTo(900.0);
        assertThat(summary.getJsonNumber("p95DurationMs").doubleValue()).isEqualTo(3000.0);
        assertThat(result.getJsonArray("sources").getValuesAs(JsonString::getString)).containsExactly("tempo", "zipkin");
        assertThat(result.containsKey("errors")).isFalse();
        assertThat(result.getString("duration")).isEqualTo("1h");
    }

    @Test
    void aTraceIdShown_isTheOneTheLogsAndTheSourcesFindTheTraceBy() {
        // the demo shop logs each request Zipkin traced under its 16-digit trace id: query_logs finds the lines by that id
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(List.of(trace("0000000000000000463ac35c9f6413ad", 120, false))))
                .add("zipkin", new ScriptedConnector().traces(List.of(trace("463AC35C9F6413AD", 120, true),
                        trace("Order-42", 90, false))));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"checkout\"}"));
        assertThat(traceIds(result)).as("a third-party connector's id that is not hex is kept exactly")
                .containsExactly("463ac35c9f6413ad", "Order-42");
    }

    @Test
    void theArgumentsReachEverySource() {
        ScriptedConnector tempo = new ScriptedConnector().traces(List.of());
        call(tool(new ScriptedSources().add("tempo", tempo)),
                "{\"service\":\"shop/checkout\",\"duration\":\"2h\",\"filter\":\"{ status = error }\",\"limit\":7,\"errorsOnly\":true}");
        TraceQuery asked = tempo.traceQueries.getFirst();
        assertThat(asked.service()).isEqualTo("shop/checkout");
        assertThat(asked.range().start()).isEqualTo(NOW.minus(Duration.ofHours(2)));
        assertThat(asked.filter()).isEqualTo(Optional.of("{ status = error }"));
        assertThat(asked.limit()).isEqualTo(QueryTracesTool.FETCH_PER_SOURCE);
        assertThat(asked.errorsOnly()).isTrue();
    }

    @Test
    void limit_capsTheMergedList_andThePercentilesDescribeWhatIsReturned() {
        ScriptedSources sources = new ScriptedSources()
                .add("a", new ScriptedConnector().traces(List.of(trace("1", 100, false), trace("2", 200, false), trace("3", 300, false))))
                .add("b", new ScriptedConnector().traces(List.of(trace("4", 400, false), trace("5", 500, false))));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"checkout\",\"limit\":2}"));
        assertThat(traceIds(result)).hasSize(2);
        assertThat(result.getJsonObject("summary").getJsonNumber("p50DurationMs").doubleValue()).isEqualTo(400.0);
        assertThat(result.getString("note")).contains("5 traces matched; the list and its summary cover only the 2 most relevant");
    }

    @Test
    void spec4_4_defaultLimit50_capsTheMergedList() {
        List<TraceSummary> window = IntStream.range(0, 60).mapToObj(i -> trace(Integer.toHexString(i + 1), 100 + i, false,
                Duration.ofSeconds(i))).toList();
        JsonObject result = structured(call(tool(new ScriptedSources().add("zipkin", new ScriptedConnector().traces(newestOf(window)))),
                "{\"service\":\"checkout\"}"));
        assertThat(traceIds(result)).hasSize(50);
        assertThat(result.getString("note")).startsWith("60 traces matched; the list and its summary cover only the 50 most relevant");
    }

    @Test
    void ranking_coversTheWholeWindow_notOnlyEachSourcesNewestLimitTraces() {
        ScriptedSources sources = new ScriptedSources()
                .add("zipkin", new ScriptedConnector().traces(newestOf(windowWhereTheTracesThatMatterAreOlder())));
        // QA: limit 5 gave errorCount 0 and limit 1 a 474 ms trace while the window held failures and a 936 ms one
        JsonObject one = structured(call(tool(sources), "{\"service\":\"payments\",\"limit\":1}"));
        assertThat(traceIds(one)).containsExactly("e1");
        JsonObject five = structured(call(tool(sources), "{\"service\":\"payments\",\"limit\":5}"));
        assertThat(traceIds(five)).startsWith("e1", "e2", "51");
        assertThat(five.getJsonObject("summary").getInt("errorCount")).isEqualTo(2);
    }

    @Test
    void aCutList_saysHowManyMatched_howManyAreShown_andThatTheSummaryDescribesTheShown() {
        ScriptedSources sources = new ScriptedSources()
                .add("zipkin", new ScriptedConnector().traces(newestOf(windowWhereTheTracesThatMatterAreOlder())));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"payments\",\"limit\":5}"));
        assertThat(result.getJsonObject("summary").getInt("total")).isEqualTo(5);
        // nearest rank over the 5 shown (936, 400, 300, 129, 128), not over the 33 matched
        assertThat(result.getJsonObject("summary").getJsonNumber("p50DurationMs").doubleValue()).isEqualTo(300.0);
        assertThat(result.getString("note")).isEqualTo("33 traces matched; the list and its summary cover only the 5 most "
                + "relevant (errors first, then slowest): raise limit (at most 1000) to see more.");
    }

    @Test
    void aSourceThatReturnsAsManyTracesAsItWasAskedFor_isNotedAsPossiblyIncomplete() {
        // a busy backend: more traces in the window than a source is asked for
        ScriptedConnector busy = new ScriptedConnector().traces(query -> IntStream.range(0, query.limit())
                .mapToObj(i -> trace(Integer.toHexString(i + 1), 100, false, Duration.ofMillis(i))).toList());
        ScriptedSources sources = new ScriptedSources().add("zipkin", busy)
                .add("tempo", new ScriptedConnector().traces(List.of(trace("fff001", 5, true))));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"payments\",\"limit\":1000}"));
        assertThat(result.getJsonObject("summary").getInt("total")).isEqualTo(1000);
        assertThat(result.getString("note")).isEqualTo("1001 traces matched; the list and its summary cover only the 1000 most "
                + "relevant (errors first, then slowest). zipkin returned 1000 traces, as many as a source is asked "
                + "for, so the window may hold more that were not ranked and the list may be incomplete: shorten duration or add "
                + "a filter.");
    }

    @Test
    void aSourceThatReturnsMoreTracesThanItWasAskedFor_isCutToItsNewest_andAWarningSaysSo() {
        // a plugin ignoring the limit: its 1000 newest traces are quick and good, its 500 oldest failed
        ScriptedConnector careless = new ScriptedConnector().traces(query -> IntStream.range(0, query.limit() + 500)
                .mapToObj(i -> trace(Integer.toHexString(i + 1), 100, i >= query.limit(), Duration.ofMillis(i))).toList());
        JsonObject result = structured(call(tool(new ScriptedSources().add("plugin", careless)), "{\"service\":\"payments\"}"));
        assertThat(result.getJsonObject("summary").getInt("errorCount")).as("its extra traces are never ranked").isZero();
        assertThat(result.getJsonArray("backendWarnings").getJsonObject(0).getJsonArray("warnings").getValuesAs(JsonString::getString))
                .containsExactly("the source returned 1500 traces, more than the 1000 it was asked for: the 500 oldest were left out");
    }

    @Test
    void errorsOnly_keepsOnlyFailingTraces() {
        ScriptedSources sources = new ScriptedSources()
                .add("zipkin", new ScriptedConnector().traces(List.of(trace("1", 100, true), trace("2", 5000, false))));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"checkout\",\"errorsOnly\":true}"));
        assertThat(traceIds(result)).containsExactly("1");
    }

    @Test
    void spec4_4_aFailingSource_isReportedInErrors_whileTheOthersTracesAreReturned() {
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(ScriptedConnector.unavailable("Tempo answered HTTP 502")))
                .add("zipkin", new ScriptedConnector().traces(List.of(trace("1", 100, false))));
        ToolResult answer = call(tool(sources), "{\"service\":\"checkout\"}");
        assertThat(answer.isError()).isFalse();
        JsonObject result = structured(answer);
        assertThat(result.getJsonArray("errors").getValuesAs(JsonString::getString)).containsExactly("tempo: Tempo answered HTTP 502");
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(traceIds(result)).hasSize(1);
        assertThat(result.getJsonArray("sources").getValuesAs(JsonString::getString)).containsExactly("zipkin");
    }

    /** A proxy in front of Tempo that echoes the request's credentials in its error page. */
    private static final String LEAKING_REFUSAL = "Tempo answered HTTP 401: token rejected for Authorization: Bearer "
            + "s3cr3t-tempo-token-0123456789 (user ops@example.com from 10.20.30.40), password=hunter2-tempo";

    @Test
    void aFailingSourcesMessage_isRedactedLikeLogLines_beforeAnAgentReadsIt() {
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(ScriptedConnector.unavailable(LEAKING_REFUSAL)))
                .add("zipkin", new ScriptedConnector().traces(List.of(trace("1", 100, false))));
        String error = structured(call(tool(sources), "{\"service\":\"checkout\"}")).getJsonArray("errors").getString(0);
        assertThat(error).startsWith("tempo: Tempo answered HTTP 401: token rejected for Authorization: ")
                .contains("[REDACTED:bearer_token]", "[REDACTED:email]", "[REDACTED:ipv4]", "[REDACTED:secret]")
                .doesNotContain("s3cr3t-tempo-token", "ops@example.com", "10.20.30.40", "hunter2");
    }

    @Test
    void withRedactionOff_aFailingSourcesMessage_isShownAsTheSourceSaidIt() {
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(ScriptedConnector.unavailable(LEAKING_REFUSAL)));
        QueryTracesTool unredacted = new QueryTracesTool(Toolkit.builder(sources.registry(), clock).redaction(false).build());
        assertThat(structured(call(unredacted, "{\"service\":\"checkout\"}")).getJsonArray("errors").getValuesAs(JsonString::getString))
                .containsExactly("tempo: " + LEAKING_REFUSAL);
    }

    @Test
    void aSourceThatAnsweredWithoutSomeOfItsTraces_saysWhichInBackendWarnings_andIsNotAFailure() {
        String gone = "1 trace the search found was gone when fetched (HTTP 404: expired or compacted away since) and left out: "
                + id("4bf9");
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(List.of(trace(id("1"), 100, false))).traceWarnings(gone))
                .add("zipkin", new ScriptedConnector().traces(List.of(trace(id("2"), 200, false))));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"checkout\"}"));
        assertThat(traceIds(result)).containsExactly(id("2"), id("1"));
        assertThat(result.getJsonArray("backendWarnings")).singleElement().satisfies(entry -> {
            assertThat(entry.asJsonObject().getString("source")).isEqualTo("tempo");
            assertThat(entry.asJsonObject().getJsonArray("warnings").getValuesAs(JsonString::getString)).containsExactly(gone);
        });
        assertThat(result).doesNotContainKeys("errors", "partial");

        JsonObject quiet = structured(call(tool(new ScriptedSources().add("zipkin", new ScriptedConnector().traces(List.of(
                trace(id("2"), 200, false))))), "{\"service\":\"checkout\"}"));
        assertThat(quiet).as("nothing lacking, nothing said").doesNotContainKey("backendWarnings");
    }

    /** A plugin's warning quoting its backend's text, which echoes the request's credentials. */
    private static final String LEAKING_WARNING = "partial answer from querier: Authorization: Bearer s3cr3t-tempo-token-0123456789 "
            + "rejected (user ops@example.com)";

    @Test
    void aSourcesWarning_isRedactedLikeLogLines_beforeAnAgentReadsIt() {
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(List.of(trace(id("1"), 100, false))).traceWarnings(LEAKING_WARNING));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"checkout\"}"));
        assertThat(result.getJsonArray("backendWarnings").getJsonObject(0).getJsonArray("warnings").getString(0))
                .startsWith("partial answer from querier: Authorization: ").contains("[REDACTED:bearer_token]", "[REDACTED:email]")
                .doesNotContain("s3cr3t-tempo-token", "ops@example.com");

        QueryTracesTool unredacted = new QueryTracesTool(Toolkit.builder(sources.registry(), clock).redaction(false).build());
        assertThat(structured(call(unredacted, "{\"service\":\"checkout\"}")).getJsonArray("backendWarnings").getJsonObject(0)
                .getJsonArray("warnings").getValuesAs(JsonString::getString)).as("OMCP_REDACTION=off").containsExactly(LEAKING_WARNING);
    }

    @Test
    void aHangingSource_timesOut_andIsReportedInErrors() {
        ScriptedSources sources = new ScriptedSources()
                .add("tempo", new ScriptedConnector().traces(ScriptedConnector.hanging()))
                .add("zipkin", new ScriptedConnector().traces(List.of(trace("1", 100, false))));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"checkout\"}"));
        assertThat(result.getJsonArray("errors").getString(0)).startsWith("tempo: ").contains("did not answer in time");
        assertThat(traceIds(result)).hasSize(1);
    }

    @Test
    void spec4_4_noCapableConnector_isAnEmptyListWithANote() {
        JsonObject result = structured(call(tool(new ScriptedSources()), "{\"service\":\"checkout\"}"));
        assertThat(result.getJsonArray("traces")).isEmpty();
        assertThat(result.getJsonObject("summary").getInt("total")).isZero();
        // no data is not a duration of zero
        assertThat(result.getJsonObject("summary").get("p50DurationMs")).isEqualTo(JsonValue.NULL);
        assertThat(result.containsKey("errors")).isFalse();
        assertThat(result.getString("note")).contains("no connector with the queryTraces capability");
    }

    @Test
    void tracesOfAnotherTenant_areNotAsked() {
        ScriptedConnector acme = new ScriptedConnector().traces(List.of(trace("1", 100, false)));
        ScriptedSources sources = new ScriptedSources().add("acme-tempo", "acme", acme);
        JsonObject globex = structured(call(tool(sources), Principal.apiKey("globex-bot", "globex"), "{\"service\":\"checkout\"}"));
        assertThat(globex.getJsonArray("traces")).isEmpty();
        assertThat(acme.traceQueries).isEmpty();
    }

    @Test
    void aNamespacedName_isResolvedThroughTheTopology_toTheNameTheTracesSourcesKnow() {
        ScriptedConnector zipkin = zipkinKnowingPayments();
        ScriptedSources sources = new ScriptedSources().add("kubernetes", kubernetes()).add("zipkin", zipkin);
        // QA: shop/payments gave "no traces of shop/payments" while the other tools resolve it
        JsonObject result = structured(call(tool(sources), "{\"service\":\"shop/payments\"}"));
        assertThat(zipkin.traceQueries).extracting(TraceQuery::service).containsExactly("payments");
        assertThat(traceIds(result)).containsExactly("1");
        assertThat(result.getString("service")).isEqualTo("shop/payments");
        assertThat(result.getString("note")).isEqualTo("Asked the traces sources for payments, the name of service/shop/payments in "
                + "the topology.");
    }

    @Test
    void aNameNoTracesSourceKnows_isSaidToBeUnknown_notQuiet() {
        ScriptedSources sources = new ScriptedSources().add("zipkin", zipkinKnowingPayments());
        JsonObject result = structured(call(tool(sources), "{\"service\":\"paymnets\"}"));
        assertThat(result.getJsonArray("traces")).isEmpty();
        assertThat(result.getString("note")).isEqualTo("None of the traces sources that answered (zipkin) knows a service named "
                + "paymnets; they list checkout, payments. list_services shows the names every source knows. "
                + "Did you mean 'payments'?");
    }

    @Test
    void aKnownServiceWithoutTracesInTheWindow_isSaidToBeQuiet_notUnknown() {
        ScriptedSources sources = new ScriptedSources().add("zipkin", new ScriptedConnector().services("checkout", "payments")
                .traces(List.of()));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"payments\",\"errorsOnly\":true,\"duration\":\"5m\"}"));
        assertThat(result.getString("note")).isEqualTo("zipkin knows payments, but has no error traces of it in the last 5m.");
    }

    @Test
    void aKnownServiceWhoseTracesTheFilterExcludes_isSaidSo_notThatItIsQuiet() {
        ScriptedSources sources = new ScriptedSources().add("zipkin", new ScriptedConnector().services("checkout", "payments")
                .traces(List.of()));
        JsonObject result = structured(call(tool(sources), "{\"service\":\"payments\",\"filter\":\"http.status_code=599\"}"));
        assertThat(result.getString("note")).isEqualTo("zipkin knows payments, but has no traces of it in the last 15m that match "
                + "the filter 'http.status_code=599'; try the call without it to see whether the filter or the window is too narrow.");
    }

    @Test
    void aNamespacedNameTheTopologyCannotResolve_isUnknown_andTheNoteSaysWhy() {
        ScriptedSources withoutTopology = new ScriptedSources().add("zipkin", zipkinKnowingPayments());
        assertThat(structured(call(tool(withoutTopology), "{\"service\":\"shop/payments\"}")).getString("note"))
                .endsWith("A namespace/name is resolved through the topology, but no source serves topology. list_services shows "
                        + "the names every source knows.");
        ScriptedSources topologyDown = new ScriptedSources()
                .add("kubernetes", new ScriptedConnector().topology(ScriptedConnector.unavailable("Kubernetes answered HTTP 503")))
                .add("zipkin", zipkinKnowingPayments());
        assertThat(structured(call(tool(topologyDown), "{\"service\":\"shop/payments\"}")).getString("note"))
                .contains("but the topology sources failed (kubernetes: Kubernetes answered HTTP 503).");
        ScriptedSources elsewhere = new ScriptedSources().add("kubernetes", kubernetes()).add("zipkin", zipkinKnowingPayments());
        assertThat(structured(call(tool(elsewhere), "{\"service\":\"billing/payments\"}")).getString("note"))
                .startsWith("None of the traces sources that answered (zipkin) knows a service named billing/payments;")
                .contains("but the topology has no service billing/payments.");
    }

    @Test
    void aNamespacedNameInAnotherCaseThanTheTopology_isAskedAsGiven_andTheNoteOffersTheTopologysSpelling() {
        ScriptedConnector zipkin = zipkinKnowingPayments();
        ScriptedSources sources = new ScriptedSources().add("kubernetes", kubernetes()).add("zipkin", zipkin);
        JsonObject result = structured(call(tool(sources), "{\"service\":\"shop/Payments\"}"));
        // exact, as every tool: shop/Payments is not resolved to payments
        assertThat(zipkin.traceQueries).extracting(TraceQuery::service).containsExactly("shop/Payments");
        assertThat(result.getString("note")).isEqualTo("None of the traces sources that answered (zipkin) knows a service named "
                + "shop/Payments; they list checkout, payments. A namespace/name is resolved through the topology, but the topology "
                + "has no service shop/Payments. list_services shows the names every source knows. Did you mean 'shop/payments'?");
    }

    @Test
    void whenATracesSourceCannotListServices_anEmptyAnswerClaimsNothingAboutTheName() {
        ScriptedSources sources = new ScriptedSources().add("tempo", new ScriptedConnector().traces(List.of()))
                .add("zipkin", zipkinKnowingPayments());
        JsonObject result = structured(call(tool(sources), "{\"service\":\"paymnets\"}"));
        assertThat(result.getString("note")).isEqualTo("no traces of paymnets in the last 15m");
    }

    @Test
    void whenATracesSourceCannotListServices_anUnresolvedNamespacedName_stillGetsTheTopologysSpelling_butIsAskedAsGiven() {
        // nothing can be claimed about what tempo knows, but the topology's answer does not depend on tempo
        ScriptedConnector tempo = new ScriptedConnector().traces(List.of());
        ScriptedSources sources = new ScriptedSources().add("kubernetes", kubernetes()).add("tempo", tempo);
        JsonObject result = structured(call(tool(sources), "{\"service\":\"shop/Payments\"}"));
        assertThat(tempo.traceQueries).extracting(TraceQuery::service).containsExactly("shop/Payments");
        assertThat(result.getString("note")).isEqualTo("no traces of shop/Payments in the last 15m. A namespace/name is resolved "
                + "through the topology, but the topology has no service shop/Payments. Did you mean 'shop/payments'?");
        ScriptedSources withoutTopology = new ScriptedSources().add("tempo", new ScriptedConnector().traces(List.of()));
        assertThat(structured(call(tool(withoutTopology), "{\"service\":\"shop/payments\"}")).getString("note"))
                .isEqualTo("no traces of shop/payments in the last 15m. A namespace/name is resolved through the topology, but no "
                        + "source serves topology.");
    }

    @Test
    void badArguments_areErrorsThatSayWhatIsWrong() {
        QueryTracesTool tool = tool(new ScriptedSources());
        assertThat(call(tool, "{}").firstText()).isEqualTo("Invalid arguments for query_traces: arguments.service: is required");
        assertThat(call(tool, "{\"service\":\"shop payments\"}").firstText()).startsWith("Invalid arguments for query_traces: "
                + "arguments.service: must match ^[A-Za-z0-9_.:/-]{1,128}$. The service whose traces to find: a name as list_services "
                + "names it");
        assertThat(call(tool, "{\"service\":\"checkout\",\"duration\":\"15 minutes\"}").firstText()).contains("arguments.duration");
        assertThat(call(tool, "{\"service\":\"checkout\",\"duration\":\"31d\"}").firstText())
                .isEqualTo("query_traces: duration '31d' is longer than the longest window, 30d; send 30d or less");
        assertThat(call(tool, "{\"service\":\"checkout\",\"limit\":0}").firstText()).contains("arguments.limit: must be >= 1");
        assertThat(call(tool, "{\"service\":\"checkout\",\"errorsOnly\":\"yes\"}").firstText()).contains("arguments.errorsOnly");
        assertThat(call(tool, "{\"service\":\"checkout\",\"limit\":1001}").firstText()).contains("arguments.limit: must be <= 1000");
        assertThat(call(tool, "{\"service\":\"checkout\",\"limit\":2.5}").firstText()).contains("arguments.limit: must be an integer");
        assertThat(call(tool, "{\"service\":\"checkout\",\"limit\":1e20}").firstText()).contains("arguments.limit: must be <= 1000");
        assertThat(call(tool, "{\"service\":\"checkout\",\"limit\":\"50\"}").firstText()).contains("arguments.limit");
        assertThat(call(tool, "{\"service\":\"checkout\",\"duration\":\"0m\"}").firstText()).contains("arguments.duration");
        assertThat(call(tool, "{\"service\":\"" + "s".repeat(129) + "\"}").firstText()).contains("arguments.service: must match");
        assertThat(call(tool, "{\"service\":\"checkout\",\"filter\":\"" + "x".repeat(QueryTracesTool.MAX_FILTER + 1) + "\"}").firstText())
                .contains("arguments.filter");
    }
}
