package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.ToolInvocation.call;
import static dev.omcp.core.tools.observability.ToolInvocation.structured;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.core.analysis.history.HistoryQuery;
import dev.omcp.core.analysis.postmortem.PostmortemTemplate;
import dev.omcp.core.analysis.topology.ClusterFixture;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.testkit.schema.UndeclaredMembers;
import dev.omcp.testkit.time.ManualClock;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class GeneratePostmortemToolTest {
    private static final Instant NOW = Instant.parse("2025-03-10T10:00:00Z");
    private final ManualClock clock = new ManualClock(NOW);

    private AnomalyHistory history = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());
    private Supplier<Optional<PostmortemTemplate>> template = Optional::empty;
    private ServiceEntitlement entitlement = ServiceEntitlement.noProductBindings();
    private boolean redaction = true;

    private final ScriptedConnector kubernetes = new ScriptedConnector().topology(ClusterFixture.cluster());
    private final ScriptedConnector mesh = new ScriptedConnector().topology(ClusterFixture.mesh());
    private final ScriptedConnector zipkin = new ScriptedConnector().traces(List.of(
            trace("a1", 4200, true), trace("b2", 2500, false), trace("c3", 300, false)));
    private final ScriptedConnector loki = new ScriptedConnector().logs(GeneratePostmortemToolTest::dbLogs);

    private static TraceSummary trace(String id, double ms, boolean error) {
        return new TraceSummary(id, "GET /orders", "web", NOW.minusSeconds(600), ms, 7, error);
    }

    /** The db's error and warning lines: slow queries, and a failure that leaks a customer's address. */
    private static LogResult dbLogs(LogQuery query) {
        List<LogEntry> entries = new ArrayList<>();
        if (query.level().orElseThrow().equals("warn")) {
            for (int i = 0; i < 12; i++) {
                entries.add(entry(NOW.minusSeconds(900 - 30L * i), "{\"level\":\"warn\",\"msg\":\"slow query took " + (900 + 50 * i) + "ms\"}"));
            }
        } else {
            entries.add(entry(NOW.minusSeconds(800), "{\"level\":\"error\",\"msg\":\"deadlock detected for carol@example.net\"}"));
            entries.add(entry(NOW.minusSeconds(700), "{\"level\":\"error\",\"msg\":\"deadlock detected for dave@corp.example\"}"));
        }
        return new LogResult(entries, false, "{service_name=\"db\"}");
    }

    private static LogEntry entry(Instant at, String line) {
        return new LogEntry(at, line, Map.of("service_name", "db"));
    }

    private void score(String tenant, String service, String signal, int minutesAgo, double score, boolean anomalous) {
        history.record(new AnomalyScoreSample(tenant, service, signal, NOW.minus(Duration.ofMinutes(minutesAgo)), score, anomalous,
                anomalous ? Optional.of("ramp") : Optional.empty(), Optional.empty()));
    }

    /** An anomalous score judged {@code minutesAgo}, dated by the detector to {@code onsetSecondsAgo}. */
    private void anomaly(String service, String signal, int minutesAgo, double score, int onsetSecondsAgo) {
        history.record(new AnomalyScoreSample("", service, signal, NOW.minus(Duration.ofMinutes(minutesAgo)), score, true,
                Optional.of("step"), Optional.of(NOW.minusSeconds(onsetSecondsAgo))));
    }

    /**
     * db's latency steps up 25 minutes ago, api's errors follow 20 minutes ago; billing (unrelated)
     * has its own trouble. Every five minutes a tool judged them again: the onsets agree, as the
     * detector's do from one call to the next (within a step of the 30 s grid).
     */
    private void incidentScores() {
        for (int m = 40; m >= 0; m -= 5) {
            if (m <= 25) {
                anomaly("db", "latency_p99", m, 12 - m / 5.0, 25 * 60 + (m % 10 == 0 ? 0 : 30));
            } else {
                score("", "db", "latency_p99", m, 0.4, false);
            }
            if (m <= 20) {
                anomaly("api", "error_rate", m, 6, 20 * 60);
            } else {
                score("", "api", "error_rate", m, 0.3, false);
            }
            anomaly("billing", "cpu", m, 9, 45 * 60);
        }
    }

    private ScriptedSources everything() {
        return new ScriptedSources().add("kubernetes", kubernetes).add("mesh", mesh).add("zipkin", zipkin).add("loki", loki);
    }

    private GeneratePostmortemTool tool(ScriptedSources sources) {
        return tool(sources.registry(), Duration.ofMillis(300), Duration.ofMillis(600));
    }

    private GeneratePostmortemTool tool(SourceRegistry registry, Duration perSource, Duration deadline) {
        Toolkit toolkit = Toolkit.builder(registry, clock).timeouts(perSource, deadline)
                .history(history).postmortemTemplate(() -> template.get()).redaction(redaction).build();
        return new GeneratePostmortemTool(toolkit, entitlement);
    }

    /** db's latency steps up fourfold 9 minutes ago, api's follows 7 minutes ago; web stays calm. */
    private static FakeMetricsBackend slowDatabase() {
        long dbStep = NOW.minus(Duration.ofMinutes(9)).toEpochMilli();
        long apiStep = NOW.minus(Duration.ofMinutes(7)).toEpochMilli();
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("db", "latency_p99", FakeMetricsBackend.stepAt(dbStep, 0.05, 0.20, 0.05))
                .serve("api", "latency_p99", FakeMetricsBackend.stepAt(apiStep, 0.10, 0.50, 0.05))
                .serve("web", "latency_p99", FakeMetricsBackend.noisy(0.08, 0.05));
        for (String service : List.of("db", "api", "web")) {
            prom.serve(service, "error_rate", FakeMetricsBackend.noisy(0.001, 0.1)).serve(service, "request_rate",
                    FakeMetricsBackend.noisy(40, 0.05)).serve(service, "cpu", FakeMetricsBackend.noisy(0.3, 0.05))
                    .serve(service, "memory", FakeMetricsBackend.noisy(2e8, 0.02));
        }
        return prom;
    }

    private static FakeTopologyBackend dbCallChain() {
        return new FakeTopologyBackend("cluster").services("db", "api", "web").calls("web", "api").calls("api", "db");
    }

    @Test
    void aTopologySourceThatAnswersWithGaps_isNamedWithThem_inTheJsonAndTheMarkdown() {
        incidentScores();
        Topology cluster = ClusterFixture.cluster();
        ScriptedConnector gappy = new ScriptedConnector().topology(new Topology(cluster.nodes(), cluster.edges(),
                List.of("not yet listed: pod (Kubernetes refused the request: 403)")));

        ToolResult result = call(tool(new ScriptedSources().add("kubernetes", gappy).add("loki", loki)), "{\"service\":\"db\"}");

        JsonObject report = structured(result);
        assertThat(report.getJsonArray("topologyGaps").getJsonObject(0).getString("source")).isEqualTo("kubernetes");
        assertThat(result.firstText()).contains("> A topology source answered with gaps (see topologyGaps)");
    }

    @Test
    void withNoScoreOfTheServiceInTheWindow_theReportRunsTheDetectionItself_andIsBuiltFromWhatItRecorded() {
        FakeMetricsBackend prom = slowDatabase();
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));

        ToolResult result = call(tool, "{\"service\":\"db\",\"duration\":\"30s\"}");
        JsonObject report = structured(result);

        JsonObject detection = report.getJsonObject("detection");
        assertThat(detection.getString("state")).isEqualTo("completed");
        assertThat(detection.getString("window")).isEqualTo("15m");
        assertThat(detection.getInt("services")).isEqualTo(3);
        assertThat(detection.getInt("anomalousServices")).isEqualTo(2);
        assertThat(detection.getInt("scoresRecorded")).isPositive();
        assertThat(detection.getString("note")).startsWith("No anomaly detection had recorded scores for this service in the window");
        assertThat(report.getJsonArray("sources").getValuesAs(JsonString::getString)).contains("prom", "cluster");
        assertThat(report.getBoolean("partial")).isFalse();
        // the report's own service was judged first, and its episode leads a timeline that would have been empty
        assertThat(prom.queries.get(0).service()).isEqualTo("db");
        JsonObject timeline = report.getJsonObject("timeline");
        assertThat(timeline.getInt("scoresRecorded")).isPositive();
        assertThat(timeline.getJsonArray("episodes").getValuesAs(JsonObject.class)).extracting(e -> e.getString("service"))
                .contains("db", "api");
        assertThat(report.getString("synopsis")).doesNotContain("No anomaly scores were recorded for this window");
        assertThat(report.getJsonObject("signals").getInt("total")).isPositive();
        assertThat(result.firstText()).contains("> No anomaly detection had recorded scores for this service in the window");
        // and the scores stay in the history, as detect_anomalies' do
        assertThat(history.query(new HistoryQuery("", Optional.of("db"), Optional.empty(), NOW.minusSeconds(60),
                NOW.plusSeconds(1), HistoryQuery.MAX_LIMIT, false)).rows()).isNotEmpty();
    }

    @Test
    void withScoresOfTheServiceAlreadyInTheWindow_noDetectionRuns_andNoMetricIsAsked() {
        incidentScores();
        FakeMetricsBackend prom = slowDatabase();
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));

        JsonObject report = structured(call(tool, "{\"service\":\"db\",\"format\":\"json\"}"));

        assertThat(report.containsKey("detection")).isFalse();
        assertThat(prom.queries).isEmpty();
        assertThat(report.getJsonObject("timeline").getInt("scoresRecorded")).isPositive();
    }

    @Test
    void aDetectionWhoseMetricsSourceHangs_recordsNothing_saysWhatToDo_andTheDraftComesOnTime() {
        GeneratePostmortemTool tool = tool(new InMemorySources().add(new FakeMetricsBackend("prom").knows("db").hanging())
                .add(dbCallChain()).registry(), Duration.ofMillis(300), Duration.ofMillis(600));

        JsonObject report = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> structured(call(tool, "{\"service\":\"db\",\"format\":\"json\"}")));

        JsonObject detection = report.getJsonObject("detection");
        assertThat(detection.getBoolean("partial")).isTrue();
        assertThat(detection.getInt("scoresRecorded")).isZero();
        // the source that failed the detection is named like any other that failed the report
        assertThat(report.getBoolean("partial")).isTrue();
        assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).anySatisfy(f -> {
            assertThat(f.getString("source")).isEqualTo("prom");
            assertThat(f.getString("signal")).isEqualTo("metrics");
            assertThat(f.getString("kind")).isEqualTo("timeout");
        });
        assertThat(detection.getString("note")).contains("recorded no score", "failed or timed out", "call detect_anomalies",
                "generate the post-mortem again");
        assertThat(report.getString("synopsis")).contains("No anomaly scores were recorded for this window");
    }

    @Test
    void aDetectionOverAPluginSendingSeconds_saysItsPointsWereLeftOut_inTheJsonAndTheMarkdown() {
        // a plugin that sends seconds in Series.epochMillis, and says something of its own with markdown in it
        FakeMetricsBackend prom = slowDatabase().reordering(s -> new Series(s.labels(),
                java.util.Arrays.stream(s.epochMillis()).map(t -> t / 1000).toArray(), s.values())).warning("store *b* [down]");
        GeneratePostmortemTool tool = tool(new InMemorySources().addPlugin(prom).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));

        ToolResult result = call(tool, "{\"service\":\"db\",\"duration\":\"30s\"}");
        JsonObject report = structured(result);

        // before: the draft said only that the metrics sources hold nothing to judge, as if db had no metrics
        JsonObject detection = report.getJsonObject("detection");
        assertThat(detection.getInt("scoresRecorded")).isZero();
        assertThat(detection.getString("note")).contains("points outside the asked window, which were left out (see backendWarnings)");
        assertThat(report.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("source")).isEqualTo("prom");
            assertThat(w.getJsonArray("warnings").getValuesAs(JsonString::getString)).satisfiesExactly(
                    line -> assertThat(line).startsWith("prom answered ").contains("likely sends seconds in Series.epochMillis"),
                    line -> assertThat(line).isEqualTo("store *b* [down]"));
        });
        // what the source said is its text, not markdown
        assertThat(result.firstText()).contains("> The detection's metrics may be incomplete: prom (metrics) warned: prom answered ")
                .contains("likely sends seconds in Series.epochMillis, which holds milliseconds / store \\*b\\* \\[down\\].")
                .contains("which were left out (see backendWarnings).");
        assertThat(UndeclaredMembers.in(report, tool(everything()).definition().outputSchema().orElseThrow())).isEmpty();
        // no line of 1970 in the timeline: nothing was judged from the misread points
        assertThat(result.firstText()).doesNotContain("1970");
    }

    @Test
    void aDetectionOverABuiltinSource_thatSaidNothing_addsNoWarning() {
        GeneratePostmortemTool tool = tool(new InMemorySources().add(slowDatabase()).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));

        ToolResult result = call(tool, "{\"service\":\"db\",\"duration\":\"30s\"}");

        assertThat(structured(result).containsKey("backendWarnings")).isFalse();
        assertThat(result.firstText()).doesNotContain("The detection's metrics may be incomplete");
    }

    @Test
    void aDraftForANameNoSourceLists_judgesNothing_soItAsksNoMetric_evenWhenAskedAgain() {
        // the detection judges the report's service and, beside it, the fleet: for a typo that is every
        // service's metrics over the window, on each call, as no score ever answers for the typo
        FakeMetricsBackend prom = slowDatabase();
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));

        call(tool, "{\"service\":\"apii\",\"format\":\"json\"}");
        JsonObject report = structured(call(tool, "{\"service\":\"apii\",\"format\":\"json\"}"));

        assertThat(prom.queries).isEmpty();
        JsonObject detection = report.getJsonObject("detection");
        assertThat(detection.getString("state")).isEqualTo("skipped");
        assertThat(detection.getInt("services")).isZero();
        assertThat(detection.getInt("scoresRecorded")).isZero();
        assertThat(detection.getBoolean("partial")).isFalse();
        assertThat(detection.getString("note")).isEqualTo("No anomaly detection had recorded scores for this service in the window, "
                + "and no source lists it, so this report ran none: it would have judged only other services.");
        assertThat(report.getBoolean("partial")).isFalse();
        assertThat(report.getString("note")).isEqualTo("No source lists a service named 'apii'; list_services shows the names. "
                + "Did you mean 'api'?");
    }

    @Test
    void aNameOnlyASourceWithoutMetricsLists_orANamespacedNameOfAListedOne_isStillJudged() {
        FakeMetricsBackend prom = slowDatabase();
        ScriptedConnector ledger = new ScriptedConnector().services("ledger");
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(ledger).add(dbCallChain()).registry(),
                Duration.ofSeconds(2), Duration.ofSeconds(4));

        JsonObject report = structured(call(tool, "{\"service\":\"ledger\",\"format\":\"json\"}"));
        assertThat(report.getJsonObject("detection").getString("state")).isEqualTo("completed");
        assertThat(prom.queries.get(0).service()).isEqualTo("ledger");

        prom.queries.clear();
        report = structured(call(tool, "{\"service\":\"shop/web\",\"format\":\"json\"}"));
        assertThat(report.getJsonObject("detection").getString("state")).isEqualTo("completed");
        assertThat(prom.queries.get(0).service()).isEqualTo("shop/web");
    }

    @Test
    void whenAMetricsSourceCouldNotSayWhichServicesItHolds_anUnlistedNameIsJudgedAsBefore() {
        // its listing failed: the name may be one of its services, so the draft does not take the typo for granted
        FakeMetricsBackend prom = slowDatabase();
        ScriptedConnector listingFails = new ScriptedConnector().services(ignored -> {
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "listing refused");
        });
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(listingFails).add(dbCallChain()).registry(),
                Duration.ofSeconds(2), Duration.ofSeconds(4));

        JsonObject report = structured(call(tool, "{\"service\":\"dbb\",\"format\":\"json\"}"));

        JsonObject detection = report.getJsonObject("detection");
        assertThat(detection.getString("state")).isEqualTo("completed");
        assertThat(prom.queries).isNotEmpty();
        // judged beside the 3 services prom lists, the name is not counted as one of them
        assertThat(detection.getInt("services")).isEqualTo(4);
        assertThat(detection.getInt("servicesListed")).isEqualTo(3);
        assertThat(detection.getString("note")).contains("(detect_anomalies over 1h, the report's service and 3 of the 3 services "
                + "the metrics sources list)");
    }

    @Test
    void aKnownServiceTheDetectionCouldNotScore_isNotJudgedAgainByTheNextDraft_whichSaysWhenItWas() {
        // prom lists ledger but holds no series of it: no score is recorded for it, and each draft would judge the fleet again
        FakeMetricsBackend prom = slowDatabase().knows("ledger");
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));

        JsonObject first = structured(call(tool, "{\"service\":\"ledger\",\"format\":\"json\"}")).getJsonObject("detection");
        assertThat(first.getString("state")).isEqualTo("completed");
        assertThat(first.getString("note")).contains("none of them for this service");
        int queries = prom.queries.size();
        assertThat(queries).isPositive();

        clock.advance(Duration.ofMinutes(5));
        ToolResult again = call(tool, "{\"service\":\"ledger\"}");

        assertThat(prom.queries).hasSize(queries);
        JsonObject report = structured(again);
        JsonObject detection = report.getJsonObject("detection");
        assertThat(detection.getString("state")).isEqualTo("earlier");
        assertThat(detection.getString("ranAt")).isEqualTo("2025-03-10T10:00:00Z");
        assertThat(detection.getInt("services")).isEqualTo(4);
        assertThat(detection.getInt("scoresRecorded")).isEqualTo(first.getInt("scoresRecorded"));
        assertThat(detection.getBoolean("partial")).isFalse();
        assertThat(detection.getString("note")).contains("at 2025-03-10T10:00:00Z", "recorded no score for it",
                "call detect_anomalies");
        assertThat(report.getBoolean("partial")).isFalse();
        assertThat(again.firstText()).contains("the one this gateway ran for a post-mortem at 2025-03-10T10:00:00Z");
    }

    @Test
    void anotherTenantsDraft_judgesTheServiceItself() {
        FakeMetricsBackend prom = slowDatabase().knows("ledger");
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));
        call(tool, Principal.apiKey("acme-agent", "acme"), "{\"service\":\"ledger\",\"format\":\"json\"}");
        int queries = prom.queries.size();

        JsonObject report = structured(call(tool, Principal.apiKey("globex-agent", "globex"),
                "{\"service\":\"ledger\",\"format\":\"json\"}"));

        assertThat(report.getJsonObject("detection").getString("state")).isEqualTo("completed");
        assertThat(prom.queries).hasSize(2 * queries);
    }

    @Test
    void aServiceWhoseQueriesFailed_orWhoseDetectionTheWindowNoLongerHolds_isJudgedAgain() {
        FakeMetricsBackend prom = slowDatabase().knows("ledger")
                .failing("cpu", new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "cpu refused"));
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(dbCallChain()).registry(), Duration.ofSeconds(2),
                Duration.ofSeconds(4));
        call(tool, "{\"service\":\"ledger\",\"format\":\"json\"}");

        // its cpu query failed: the detection does not know that ledger has nothing to judge
        JsonObject report = structured(call(tool, "{\"service\":\"ledger\",\"format\":\"json\"}"));
        assertThat(report.getJsonObject("detection").getString("state")).isEqualTo("completed");

        FakeMetricsBackend answering = slowDatabase().knows("ledger");
        tool = tool(new InMemorySources().add(answering).add(dbCallChain()).registry(), Duration.ofSeconds(2), Duration.ofSeconds(4));
        call(tool, "{\"service\":\"ledger\",\"format\":\"json\"}");
        clock.advance(Duration.ofMinutes(11));
        int queries = answering.queries.size();
        report = structured(call(tool, "{\"service\":\"ledger\",\"duration\":\"10m\",\"format\":\"json\"}"));
        assertThat(report.getJsonObject("detection").getString("state")).isEqualTo("completed");
        assertThat(answering.queries).hasSize(2 * queries);
    }

    @Test
    void aDraftForANameNoSourceLists_asksEachSourceForItsServicesOnce() {
        FakeMetricsBackend prom = slowDatabase();
        AtomicInteger ledgerListings = new AtomicInteger();
        ScriptedConnector ledger = new ScriptedConnector().services(ignored -> {
            ledgerListings.incrementAndGet();
            return List.of(new ServiceInfo("ledger", Map.of()));
        });
        GeneratePostmortemTool tool = tool(new InMemorySources().add(prom).add(ledger).add(dbCallChain()).registry(),
                Duration.ofSeconds(2), Duration.ofSeconds(4));

        JsonObject report = structured(call(tool, "{\"service\":\"ledgr\",\"format\":\"json\"}"));

        assertThat(report.getJsonObject("detection").getString("state")).isEqualTo("skipped");
        assertThat(report.getString("note")).isEqualTo("No source lists a service named 'ledgr'; list_services shows the names. "
                + "Did you mean 'ledger'?");
        assertThat(prom.listings.get()).isEqualTo(1);
        assertThat(ledgerListings.get()).isEqualTo(1);
    }

    @Test
    void withAServiceCatalog_theFollowUpsNameTheTeamsToTell_notKubernetesOwners() {
        incidentScores();
        ServiceCatalog catalog;
        try (var reader = Jsonp.reader("{\"services\":{\"db\":{\"owner\":\"team-data\",\"onCall\":\"#data-oncall\"},"
                + "\"api\":{\"owner\":\"team-api\",\"onCall\":\"#api-oncall\"},\"web\":{\"owner\":\"team-api\",\"onCall\":\"#api-oncall\"}}}")) {
            catalog = ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(reader.readObject())).catalog();
        }
        Toolkit toolkit = Toolkit.builder(everything().registry(), clock).timeouts(Duration.ofMillis(300), Duration.ofMillis(600))
                .history(history).redaction(redaction).catalog(catalog).build();
        JsonObject report = structured(call(new GeneratePostmortemTool(toolkit, entitlement), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getJsonArray("followUps").getValuesAs(JsonString::getString))
                .anySatisfy(f -> assertThat(f).startsWith("Tell the teams of the affected services (service catalog): ")
                        .contains("team-data (#data-oncall) for db").contains("team-api (#api-oncall) for api"))
                .noneSatisfy(f -> assertThat(f).startsWith("Tell the owners"));
        assertThat(report.getJsonObject("contacts").getString("db")).isEqualTo("team-data (#data-oncall)");
        assertThat(GeneratePostmortemTool.contact(Jsonp.reader("{\"tier\":1}").readObject())).isEmpty();
        assertThat(GeneratePostmortemTool.contact(Jsonp.reader("{\"onCall\":\"#x\"}").readObject())).contains("#x");
    }

    private static List<String> headings(String markdown) {
        return markdown.lines().filter(l -> l.startsWith("## ")).toList();
    }

    @Test
    void spec4_4_markdown_hasTheSectionsInOrder_builtFromWhatTheSourcesReallyHold() {
        incidentScores();
        ToolResult answer = call(tool(everything()), "{\"service\":\"db\"}");
        String md = answer.firstText();
        assertThat(md).startsWith("# Post-mortem draft: db\n");
        assertThat(headings(md)).containsExactly("## Synopsis", "## Anomaly timeline", "## Blast radius at peak",
                "## Contributing signals", "## Related traces", "## Log highlights", "## Suggested follow-ups");
        JsonObject report = structured(answer);
        // the timeline holds db and what its degradation reaches (api through the mesh), not unrelated billing;
        // one episode per deviation however often it was judged, earliest onset first
        JsonObject timeline = report.getJsonObject("timeline");
        assertThat(timeline.getJsonArray("episodes").stream().map(r -> r.asJsonObject().getString("service")).toList())
                .containsExactly("db", "api");
        JsonObject db = timeline.getJsonArray("episodes").getJsonObject(0);
        assertThat(db.getString("onset")).isEqualTo("2025-03-10T09:34:30Z");
        assertThat(db.getBoolean("onsetKnown")).isTrue();
        assertThat(db.getInt("judgments")).isEqualTo(6);
        assertThat(db.getString("lastSeen")).isEqualTo("2025-03-10T10:00:00Z");
        assertThat(db.getJsonNumber("peakScore").doubleValue()).isEqualTo(12.0);
        assertThat(db.getString("measure")).isEqualTo("99th percentile, s");
        assertThat(timeline.getInt("scoresRecorded")).isEqualTo(18);
        assertThat(timeline.getInt("anomalousScores")).isEqualTo(11);
        assertThat(report.getString("synopsis")).contains("Peak anomaly score 12.0 on latency_p99 (99th percentile, s) of db")
                .contains("2 anomaly episodes across 2 services")
                .contains("The earliest onset is 2025-03-10T09:34:30Z (latency_p99 (99th percentile, s) of db, step): db went wrong first "
                        + "among the services in this report.")
                // billing, which the topology does not know, deviated earlier: said, without claiming how it relates to db
                .contains("billing, outside this report's scope, deviated earlier (cpu from 2025-03-10T09:15:00Z): a post-mortem for "
                        + "billing may tell whether it is the root cause.");
        assertThat(md).contains("_Outside this report's scope (db and its blast radius), anomalies were also recorded for: billing "
                + "(cpu from 2025-03-10T09:15:00Z). get_anomaly_history lists them._");
        assertThat(md).contains("| 2025-03-10T09:34:30Z | db | latency_p99 (99th percentile, s) | step | 12.0 | 6 | 2025-03-10T10:00:00Z |");
        assertThat(report.getJsonObject("blastRadius").getBoolean("included")).isTrue();
        assertThat(report.getJsonObject("blastRadius").getJsonArray("targets").getValuesAs(JsonString::getString))
                .containsExactly("service/prod/db", "statefulset/prod/db");
        assertThat(md).contains("service/prod/api").contains("service/prod/gateway");
        assertThat(report.getJsonObject("traces").getInt("errorCount")).isEqualTo(1);
        assertThat(md).contains("**1 error trace:** `a1`");
        assertThat(report.getJsonArray("sources").getValuesAs(JsonString::getString))
                .containsExactlyInAnyOrder("kubernetes", "mesh", "zipkin", "loki");
        assertThat(report.getBoolean("partial")).isFalse();
        assertThat(report.getString("tenant")).isEmpty();
        assertThat(report.getString("window")).isEqualTo("1h");
    }

    @Test
    void aServiceTheSuspectDependsOn_thatDeviatedEarlier_isNamedInTheSynopsis_insteadOfCallingTheSuspectFirst() {
        // web calls api, which calls db: db is not in web's blast radius (it does not depend on web), but web is in db's
        incidentScores();
        anomaly("web", "error_rate", 0, 7, 18 * 60);
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"web\",\"format\":\"json\"}"));
        assertThat(report.getJsonObject("timeline").getJsonArray("episodes").stream().map(e -> e.asJsonObject().getString("service"))
                .toList()).doesNotContain("db", "api");
        assertThat(report.getString("synopsis"))
                .contains("web went wrong first among the services in this report.")
                .contains("db, outside this report's scope, deviated earlier (latency_p99 from 2025-03-10T09:34:30Z), and web is in its "
                        + "blast radius: a post-mortem for db may find the root cause.")
                .doesNotContain("web went wrong first.");
        assertThat(report.getJsonArray("followUps").getValuesAs(JsonString::getString)).anySatisfy(f -> assertThat(f).isEqualTo(
                "db deviated before anything in this report (latency_p99 from 2025-03-10T09:34:30Z), and web is in its blast radius. It "
                        + "is outside this report's scope: check whether it is the root cause (generate_postmortem for db)."));
        List<JsonObject> outside = report.getJsonObject("timeline").getJsonArray("outsideScope").getValuesAs(JsonObject.class);
        assertThat(outside).extracting(o -> o.getString("service")).containsExactly("billing", "db", "api");
        assertThat(outside.get(1).getBoolean("reachesService")).isTrue();
        assertThat(outside.get(0).containsKey("reachesService")).as("billing is not in the topology").isFalse();
    }

    @Test
    void scoresRecordedUnderANamespacedName_areTheSameServicesScores_neverAServiceOutsideItsOwnReport() {
        // get_service_health for prod/db records under prod/db, detect_anomalies under db: one service
        incidentScores();
        anomaly("prod/db", "latency_p99", 1, 11, 25 * 60);
        anomaly("prod/api", "error_rate", 1, 6, 20 * 60);
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"db\",\"format\":\"json\"}"));
        JsonObject timeline = report.getJsonObject("timeline");
        assertThat(timeline.getJsonArray("outsideScope").getValuesAs(JsonObject.class)).extracting(o -> o.getString("service"))
                .containsExactly("billing");
        List<JsonObject> episodes = timeline.getJsonArray("episodes").getValuesAs(JsonObject.class);
        assertThat(episodes).extracting(e -> e.getString("service") + " " + e.getString("signal"))
                .containsExactly("db latency_p99", "api error_rate");
        assertThat(episodes.get(0).getInt("judgments")).as("the prod/db judgement joins db's episode").isEqualTo(7);
        assertThat(report.getString("synopsis")).contains("2 anomaly episodes across 2 services").doesNotContain("prod/");

        // asked for by its namespaced name, the report goes by that name, and the bare-name scores are its own
        JsonObject namespaced = structured(call(tool(everything()), "{\"service\":\"prod/db\",\"format\":\"json\"}"));
        assertThat(namespaced.getJsonObject("timeline").getJsonArray("episodes").getValuesAs(JsonObject.class))
                .extracting(e -> e.getString("service") + " " + e.getString("signal"))
                .containsExactly("prod/db latency_p99", "api error_rate");
        assertThat(namespaced.getJsonObject("timeline").getJsonArray("outsideScope").getValuesAs(JsonObject.class))
                .extracting(o -> o.getString("service")).containsExactly("billing");
        assertThat(namespaced.getString("synopsis")).contains("prod/db went wrong first among the services in this report");
    }

    /**
     * db runs 300 pods with a container each, api calls db, edge calls api, and ops is apart: the
     * walk from db lists its pods and containers before it reaches edge, three hops away.
     */
    private static Topology bigDatabase() {
        List<TopologyNode> nodes = new ArrayList<>();
        List<TopologyEdge> edges = new ArrayList<>();
        for (String s : List.of("db", "api", "edge", "ops")) {
            nodes.add(new TopologyNode("service/shop/" + s, "service", s, "shop", Map.of()));
        }
        nodes.add(new TopologyNode("statefulset/shop/db", "statefulset", "db", "shop", Map.of()));
        for (int i = 0; i < 300; i++) {
            nodes.add(new TopologyNode("pod/shop/db-" + i, "pod", "db-" + i, "shop", Map.of()));
            nodes.add(new TopologyNode("container/shop/db-" + i + "/db", "container", "db", "shop", Map.of()));
            edges.add(new TopologyEdge("pod/shop/db-" + i, "statefulset/shop/db", Relation.OWNED_BY));
            edges.add(new TopologyEdge("pod/shop/db-" + i, "container/shop/db-" + i + "/db", Relation.CONTAINS));
            edges.add(new TopologyEdge("service/shop/db", "pod/shop/db-" + i, Relation.DEPENDS_ON));
        }
        edges.add(new TopologyEdge("service/shop/api", "service/shop/db", Relation.CALLS));
        edges.add(new TopologyEdge("service/shop/edge", "service/shop/api", Relation.CALLS));
        return new Topology(nodes, edges);
    }

    @Test
    void aServiceTheDegradationReachesBeyondTheBlastRadiusListing_isStillInTheReportsScope() {
        anomaly("db", "latency_p99", 0, 12, 25 * 60);
        anomaly("edge", "error_rate", 0, 7, 15 * 60);
        anomaly("ops", "cpu", 0, 5, 10 * 60);
        ScriptedConnector cluster = new ScriptedConnector().topology(bigDatabase());

        JsonObject report = structured(call(tool(new ScriptedSources().add("kubernetes", cluster)),
                "{\"service\":\"db\",\"format\":\"json\"}"));

        assertThat(report.getJsonObject("timeline").getJsonArray("episodes").getValuesAs(JsonObject.class))
                .extracting(e -> e.getString("service")).containsExactly("db", "edge");
        assertThat(report.getJsonObject("timeline").getJsonArray("outsideScope").getValuesAs(JsonObject.class))
                .extracting(o -> o.getString("service") + " " + o.getBoolean("reachesService")).containsExactly("ops false");
    }

    @Test
    void aServiceOutsideTheScopeWhoseWalkReachesTheReportsServiceFarOut_isSaidToReachIt() {
        // the report is for edge; db deviated first, and edge is in db's blast radius, behind 600 pods and containers
        anomaly("db", "latency_p99", 0, 12, 25 * 60);
        anomaly("edge", "error_rate", 0, 7, 15 * 60);
        ScriptedConnector cluster = new ScriptedConnector().topology(bigDatabase());

        JsonObject report = structured(call(tool(new ScriptedSources().add("kubernetes", cluster)),
                "{\"service\":\"edge\",\"format\":\"json\"}"));

        List<JsonObject> outside = report.getJsonObject("timeline").getJsonArray("outsideScope").getValuesAs(JsonObject.class);
        assertThat(outside).extracting(o -> o.getString("service")).containsExactly("db");
        assertThat(outside.getFirst().getBoolean("reachesService")).as(outside.toString()).isTrue();
    }

    @Test
    void withTheTopologyIncomplete_aServiceOutsideTheScopeThatDeviatedEarlier_isNamedWithoutGuessingHowItRelates() {
        incidentScores();
        anomaly("web", "error_rate", 0, 7, 18 * 60);
        ScriptedConnector lateMesh = new ScriptedConnector().topology(ScriptedConnector.hanging());
        JsonObject report = structured(call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("mesh", lateMesh)),
                "{\"service\":\"web\",\"format\":\"json\"}"));
        // billing's onset is the earliest, but db's and billing's relation to web is unknown: the earliest is named
        assertThat(report.getString("synopsis")).contains("billing, outside this report's scope, deviated earlier (cpu from "
                + "2025-03-10T09:15:00Z): a post-mortem for billing may tell whether it is the root cause.");
        assertThat(report.getJsonObject("timeline").getJsonArray("outsideScope").getJsonObject(0).containsKey("reachesService")).isFalse();
    }

    @Test
    void logHighlights_areTheWindowsErrorAndWarningLines_deDuplicatedCountedAndRedacted() {
        incidentScores();
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"db\",\"duration\":\"30m\"}"));
        List<JsonObject> highlights = report.getJsonArray("logHighlights").getValuesAs(JsonObject.class);
        assertThat(highlights).hasSize(2);
        assertThat(highlights.get(0).getString("line")).startsWith("error: deadlock detected for ")
                .doesNotContain("carol@example.net").doesNotContain("dave@corp.example");
        assertThat(highlights.get(0).getInt("occurrences")).isEqualTo(2);
        assertThat(highlights.get(1).getString("line")).isEqualTo("warn: slow query took 900ms");
        assertThat(highlights.get(1).getInt("occurrences")).isEqualTo(12);
        assertThat(highlights.get(1).getString("firstSeen")).isEqualTo(NOW.minusSeconds(900).toString());
        assertThat(loki.logQueries).extracting(q -> q.level().orElseThrow()).containsExactlyInAnyOrder("error", "warn");
        assertThat(loki.logQueries).allSatisfy(q -> {
            assertThat(q.service()).isEqualTo("db");
            assertThat(q.range().start()).isEqualTo(NOW.minus(Duration.ofMinutes(30)));
            assertThat(q.range().end()).isEqualTo(NOW);
        });
    }

    @Test
    void overALongWindow_theLogsAreSearchedFromShortlyBeforeTheServicesEarliestOnset_andTheReportSaysSo() {
        incidentScores(); // db's latency deviates from 09:34:30Z
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"db\",\"duration\":\"7d\",\"format\":\"json\"}"));
        Instant start = Instant.parse("2025-03-10T09:19:30Z"); // 15 min before the onset
        assertThat(loki.logQueries).isNotEmpty().allSatisfy(q -> {
            assertThat(q.range().start()).isEqualTo(start);
            assertThat(q.range().end()).isEqualTo(NOW);
        });
        JsonObject search = report.getJsonObject("logSearch");
        assertThat(search.getString("from")).isEqualTo(start.toString());
        assertThat(search.getString("to")).isEqualTo(NOW.toString());
        assertThat(search.getBoolean("partial")).isFalse();
        assertThat(search.getString("note")).isEqualTo("Searched from 2025-03-10T09:19:30Z to 2025-03-10T10:00:00Z (from 15 min "
                + "before the earliest anomaly onset of db, at most 6 h), not the whole 7d window: a log search over a long window is "
                + "slow on most backends and would not finish in time. query_logs searches any other part.");
        // the other sources still cover the whole window
        assertThat(zipkin.traceQueries.getFirst().range().start()).isEqualTo(NOW.minus(Duration.ofDays(7)));
    }

    @Test
    void overALongWindowWithNoAnomalyOfTheService_theLogsAreSearchedOverItsLastSixHours() {
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"db\",\"duration\":\"3d\",\"format\":\"json\"}"));
        assertThat(loki.logQueries).isNotEmpty().allSatisfy(q -> assertThat(q.range().start()).isEqualTo(NOW.minus(Duration.ofHours(6))));
        assertThat(report.getJsonObject("logSearch").getString("note")).startsWith("Searched the last 6 h (2025-03-10T04:00:00Z to "
                + "2025-03-10T10:00:00Z), not the whole 3d window");
    }

    @Test
    void aLogsSourceCutAtItsLimit_makesTheCountsLowerBounds() {
        ScriptedConnector busy = new ScriptedConnector().logs(q -> new LogResult(List.of(entry(NOW.minusSeconds(60),
                "{\"msg\":\"connection reset by peer\"}")), true, ""));
        JsonObject report = structured(call(tool(new ScriptedSources().add("loki", busy)), "{\"service\":\"db\"}"));
        assertThat(report.getJsonArray("logHighlights").getJsonObject(0).getBoolean("countIsLowerBound")).isTrue();
        assertThat(busy.logQueries).allSatisfy(q -> assertThat(q.limit()).isEqualTo(GeneratePostmortemTool.LOG_LINES_PER_LEVEL));
    }

    @Test
    void aLogsSourceThatWarnsAlongsideItsLines_isNamedWithItsWarningsRedacted_inTheJsonAndTheMarkdown() {
        incidentScores();
        ScriptedConnector partial = new ScriptedConnector().logs(q -> {
            LogResult lines = dbLogs(q);
            return new LogResult(lines.entries(), false, lines.resolvedQuery(),
                    List.of("query timed out on 3 of 16 shards, results may be partial; ask ops@example.com"));
        });

        ToolResult result = call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("loki", partial)),
                "{\"service\":\"db\",\"duration\":\"30m\"}");

        JsonObject report = structured(result);
        // both level searches said it: listed once, redacted like the highlights beside it
        assertThat(report.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("source")).isEqualTo("loki");
            assertThat(w.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString))
                    .containsExactly("query timed out on 3 of 16 shards, results may be partial; ask [REDACTED:email]");
        });
        assertThat(report.getJsonArray("logHighlights")).hasSize(2);
        assertThat(result.firstText()).contains("> Log highlights may be incomplete: loki (logs) warned: query timed out on 3 of 16 "
                + "shards, results may be partial; ask \\[REDACTED:email\\].").doesNotContain("ops@example.com");
        assertThat(UndeclaredMembers.in(report, tool(everything()).definition().outputSchema().orElseThrow())).isEmpty();

        ToolResult quiet = call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("loki", loki)), "{\"service\":\"db\"}");
        assertThat(structured(quiet).containsKey("backendWarnings")).isFalse();
        assertThat(quiet.firstText()).doesNotContain("Log highlights may be incomplete");
    }

    @Test
    void aTracesSourceThatAnsweredWithoutSomeOfItsTraces_namesTheMissingOnesBesideTheLogWarnings_inTheJsonAndTheMarkdown() {
        incidentScores();
        String gone = "1 trace the search found was gone when fetched (HTTP 404: expired or compacted away since) and left out: "
                + "4bf92f3577b34da6a3ce929d0e0e4736";
        ScriptedConnector tempo = new ScriptedConnector().traces(List.of(trace("a1", 4200, true))).traceWarnings(gone);
        ScriptedConnector partialLoki = new ScriptedConnector().logs(q -> {
            LogResult lines = dbLogs(q);
            return new LogResult(lines.entries(), false, lines.resolvedQuery(), List.of("query timed out on 3 of 16 shards"));
        });

        ToolResult result = call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("tempo", tempo).add("loki", partialLoki)),
                "{\"service\":\"db\",\"duration\":\"30m\"}");

        JsonObject report = structured(result);
        // the traces it did return are in the report, and the lost one is not a failure: the source answered
        assertThat(report.getJsonObject("traces").getJsonArray("items")).hasSize(1);
        assertThat(report.getBoolean("partial")).isFalse();
        assertThat(report.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).satisfiesExactly(
                w -> {
                    assertThat(w.getString("source")).isEqualTo("tempo");
                    assertThat(w.getJsonArray("warnings").getValuesAs(JsonString::getString)).containsExactly(gone);
                },
                w -> {
                    assertThat(w.getString("source")).isEqualTo("loki");
                    assertThat(w.getJsonArray("warnings").getValuesAs(JsonString::getString))
                            .containsExactly("query timed out on 3 of 16 shards");
                });
        assertThat(result.firstText()).contains("> Related traces may be incomplete: tempo (traces) warned: " + gone + ".")
                .contains("> Log highlights may be incomplete: loki (logs) warned: query timed out on 3 of 16 shards.");
        assertThat(UndeclaredMembers.in(report, tool(everything()).definition().outputSchema().orElseThrow())).isEmpty();

        ToolResult quiet = call(tool(everything()), "{\"service\":\"db\"}");
        assertThat(structured(quiet).containsKey("backendWarnings")).isFalse();
        assertThat(quiet.firstText()).doesNotContain("Related traces may be incomplete");
    }

    @Test
    void aTracesSourcesWarning_isRedactedLikeTheLogHighlights_inTheJsonAndTheMarkdown() {
        ScriptedConnector tempo = new ScriptedConnector().traces(List.of(trace("a1", 4200, true)))
                .traceWarnings("querier refused Authorization: Bearer s3cr3t-tempo-token-0123456789");

        ToolResult result = call(tool(new ScriptedSources().add("tempo", tempo)), "{\"service\":\"db\"}");

        assertThat(structured(result).getJsonArray("backendWarnings").getJsonObject(0).getJsonArray("warnings").getString(0))
                .startsWith("querier refused Authorization: ").contains("[REDACTED:bearer_token]").doesNotContain("s3cr3t-tempo-token");
        // the markdown escapes the marker's brackets
        assertThat(result.firstText()).contains("tempo (traces) warned: querier refused Authorization: ")
                .contains("REDACTED:bearer_token").doesNotContain("s3cr3t-tempo-token");
    }

    @Test
    void aTracesSourceThatWarnsAtLength_isBoundedAsEveryBackendWarningIs() {
        String[] many = new String[WarnedSources.MAX_WARNINGS_PER_SOURCE + 5];
        for (int i = 0; i < many.length; i++) {
            many[i] = "trace " + i + " was gone when fetched " + "x".repeat(WarnedSources.MAX_WARNING_CHARS);
        }
        ScriptedConnector tempo = new ScriptedConnector().traces(List.of(trace("a1", 4200, true))).traceWarnings(many);

        JsonObject report = structured(call(tool(new ScriptedSources().add("tempo", tempo)), "{\"service\":\"db\"}"));

        List<String> shown = report.getJsonArray("backendWarnings").getJsonObject(0).getJsonArray("warnings")
                .getValuesAs(JsonString::getString);
        assertThat(shown).hasSize(WarnedSources.MAX_WARNINGS_PER_SOURCE)
                .allSatisfy(w -> assertThat(w).hasSize(WarnedSources.MAX_WARNING_CHARS + 1).endsWith("…"));
        assertThat(shown.getFirst()).startsWith("trace 0 was gone when fetched");
    }

    @Test
    void theWindowEndsAtTheEndOfTheCurrentSecond_soAScoreRecordedJustBeforeIsIncluded() {
        clock.set(NOW.plusMillis(300));
        history.record(new AnomalyScoreSample("", "db", "latency_p99", NOW.plusMillis(250), 9, true, Optional.of("step"), Optional.empty()));
        clock.set(NOW.plusMillis(700));
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getString("to")).isEqualTo("2025-03-10T10:00:01Z");
        assertThat(report.getString("from")).isEqualTo("2025-03-10T09:00:01Z");
        assertThat(report.getJsonObject("timeline").getInt("scoresRecorded")).isEqualTo(1);
        assertThat(report.getJsonObject("timeline").getInt("totalEpisodes")).isEqualTo(1);
    }

    @Test
    void withRedactionOff_theLinesAreKeptAsWritten() {
        redaction = false;
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"db\"}"));
        assertThat(report.getJsonArray("logHighlights").getJsonObject(0).getString("line"))
                .isEqualTo("error: deadlock detected for carol@example.net");
    }

    @Test
    void spec4_4_json_isTheSameContentAsJson() {
        incidentScores();
        ToolResult json = call(tool(everything()), "{\"service\":\"db\",\"format\":\"json\"}");
        JsonObject report = structured(json);
        assertThat(json.firstText()).isEqualTo(report.toString());
        ToolResult markdown = call(tool(everything()), "{\"service\":\"db\"}");
        assertThat(structured(markdown).getString("synopsis")).isEqualTo(report.getString("synopsis"));
        assertThat(report.getJsonArray("sections").getValuesAs(JsonString::getString)).containsExactly("synopsis", "timeline",
                "blastRadius", "signals", "traces", "logHighlights", "followUps");
    }

    @Test
    void theOutputSchema_declaresEveryMemberTheAnswerHas_blastRadiusAndTracesIncluded() {
        incidentScores();
        ServiceCatalog catalog;
        try (var reader = Jsonp.reader("{\"services\":{\"db\":{\"owner\":\"team-data\",\"onCall\":\"#data-oncall\"}}}")) {
            catalog = ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(reader.readObject())).catalog();
        }
        ScriptedSources withAFailure = everything().add("tempo",
                new ScriptedConnector().traces(ScriptedConnector.unavailable("Tempo answered HTTP 500")));
        Toolkit toolkit = Toolkit.builder(withAFailure.registry(), clock).timeouts(Duration.ofMillis(300), Duration.ofMillis(600))
                .history(history).catalog(catalog).build();
        GeneratePostmortemTool tool = new GeneratePostmortemTool(toolkit);
        JsonObject report = structured(call(tool, "{\"service\":\"db\",\"format\":\"json\"}"));

        assertThat(report.getJsonObject("blastRadius").keySet()).contains("targets", "nodes", "totalNodes", "truncated", "hosts",
                "owners", "unresolved");
        assertThat(report.getJsonObject("traces").keySet()).contains("items", "total", "totalIsLowerBound", "errorCount");
        assertThat(report.containsKey("failedSources")).isTrue();
        assertThat(UndeclaredMembers.in(report, tool.definition().outputSchema().orElseThrow())).isEmpty();
        JsonObject blast = tool.definition().outputSchema().orElseThrow().getJsonObject("properties").getJsonObject("blastRadius")
                .getJsonObject("properties");
        assertThat(blast.getJsonObject("totalNodes").getString("type")).isEqualTo("integer");
        assertThat(blast.getJsonObject("hosts").getString("description")).isNotBlank();
    }

    @Test
    void spec4_4_sinkNotConfigured_synopsisSaysNoScoresRecorded_andAFollowUpSuggestsTheVariable() {
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getString("synopsis")).contains("No anomaly scores were recorded for this window")
                .contains("The anomaly-history sink is not configured");
        assertThat(report.getJsonArray("followUps").getValuesAs(JsonString::getString))
                .anySatisfy(f -> assertThat(f).contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE"));

        history = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(samples -> true));
        JsonObject withSink = structured(call(tool(everything()), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(withSink.getString("synopsis")).doesNotContain("sink is not configured");
        assertThat(withSink.getJsonArray("followUps").toString()).doesNotContain("OMCP_ANOMALY_HISTORY_REMOTE_WRITE");
    }

    @Test
    void spec4_4_noTracesCapableConnector_relatedTracesOmittedWithANote() {
        String md = call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("loki", loki)), "{\"service\":\"db\"}").firstText();
        assertThat(md).contains("## Related traces\n\n_Related traces omitted: no traces-capable connector is configured._");
    }

    @Test
    void spec4_4_topologyProviderDown_blastRadiusOmittedWithANote_andTheFailureNamed() {
        ScriptedConnector down = new ScriptedConnector().topology(ScriptedConnector.unavailable("Kubernetes API answered HTTP 503"));
        ToolResult answer = call(tool(new ScriptedSources().add("kubernetes", down).add("zipkin", zipkin).add("loki", loki)),
                "{\"service\":\"db\"}");
        assertThat(answer.firstText()).contains("## Blast radius at peak\n\n_Blast radius omitted: the topology provider is down "
                + "(kubernetes failed: Kubernetes API answered HTTP 503)._");
        JsonObject report = structured(answer);
        assertThat(report.getJsonObject("blastRadius").getBoolean("included")).isFalse();
        assertThat(report.getBoolean("partial")).isTrue();
        assertThat(report.getJsonArray("failedSources").getJsonObject(0).toString()).isEqualTo(
                "{\"source\":\"kubernetes\",\"signal\":\"topology\",\"kind\":\"unavailable\",\"error\":\"Kubernetes API answered HTTP 503\"}");
        assertThat(answer.firstText()).contains("> Partial data: kubernetes (topology) failed: Kubernetes API answered HTTP 503.");
    }

    @Test
    void aTopologySourceThatTimesOut_whileAnotherAnswers_leavesABlastRadiusThatSaysItIsIncomplete() {
        incidentScores();
        // kubernetes answers; the mesh, whose calls link api to db, does not
        ScriptedConnector lateMesh = new ScriptedConnector().topology(ScriptedConnector.hanging());
        ToolResult answer = call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("mesh", lateMesh).add("zipkin", zipkin)
                .add("loki", loki)), "{\"service\":\"db\"}");
        JsonObject report = structured(answer);
        JsonObject blast = report.getJsonObject("blastRadius");
        assertThat(blast.getBoolean("included")).isTrue();
        assertThat(blast.getBoolean("partial")).isTrue();
        assertThat(blast.getString("note")).isEqualTo("Incomplete: mesh timed out: the source did not answer in time. The resources "
                + "and calls only it reports are missing, so more may be affected than listed here.");
        assertThat(answer.firstText()).contains("## Blast radius at peak\n\n_Incomplete: mesh timed out");
        assertThat(report.getString("synopsis")).contains("Blast radius incomplete (mesh did not answer): at least ")
                .contains("1 anomaly episode across 1 service in an incomplete scope");
        // api's anomalies are left out because the walk could not reach it: the timeline says its scope is incomplete
        JsonObject timeline = report.getJsonObject("timeline");
        assertThat(timeline.getBoolean("partial")).isTrue();
        assertThat(timeline.getString("note")).startsWith("Scope incomplete: mesh timed out");
        List<String> followUps = report.getJsonArray("followUps").getValuesAs(JsonString::getString);
        assertThat(followUps).noneSatisfy(f -> assertThat(f).startsWith("Tell the owners"));
        assertThat(followUps).anySatisfy(f -> assertThat(f).startsWith("Rerun get_blast_radius for db when mesh answers in time"));
        assertThat(report.getJsonArray("failedSources").getJsonObject(0).getString("source")).isEqualTo("mesh");
    }

    @Test
    void aLogsSourceThatTimesOut_saysSoInTheLogHighlightsSection_insteadOfLeavingItOutSilently() {
        ScriptedConnector lateLoki = new ScriptedConnector().logs(ScriptedConnector.hanging());
        ToolResult answer = call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("zipkin", zipkin).add("loki", lateLoki)),
                "{\"service\":\"db\"}");
        assertThat(headings(answer.firstText())).contains("## Log highlights");
        assertThat(answer.firstText()).contains("## Log highlights\n\n_Log highlights unavailable: loki timed out: the source did not "
                + "answer in time._");
        JsonObject report = structured(answer);
        assertThat(report.getJsonObject("logSearch").getBoolean("partial")).isTrue();
        assertThat(report.getString("synopsis")).contains("Logs not searched: loki timed out");
    }

    /** The LogQL the Loki connector sends for one of the draft's level searches. */
    private static String logql(LogQuery query) {
        return "{service_name=\"" + query.service() + "\"} | json | level=~\"(?i)" + query.level().orElseThrow() + "\"";
    }

    private static final String ERROR_SEARCH = "{service_name=\"db\"} | json | level=~\"(?i)error\"";

    @Test
    void aLogsSourceThatTimesOut_isNamedWithTheLogqlItWasRunning_inTheJsonAndInThePartialDataLine() {
        ScriptedConnector lateLoki = new ScriptedConnector().logs(ScriptedConnector.hanging()).reportingLogs(GeneratePostmortemToolTest::logql);
        GeneratePostmortemTool tool = tool(new ScriptedSources().add("kubernetes", kubernetes).add("loki", lateLoki));

        JsonObject report = structured(call(tool, "{\"service\":\"db\",\"format\":\"json\"}"));

        // both level searches timed out alike: one entry, which names the error search
        assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).singleElement().satisfies(f -> {
            assertThat(f.getString("source")).isEqualTo("loki");
            assertThat(f.getString("signal")).isEqualTo("logs");
            assertThat(f.getString("kind")).isEqualTo("timeout");
            assertThat(f.getString("query")).isEqualTo(ERROR_SEARCH);
        });
        assertThat(UndeclaredMembers.in(report, tool.definition().outputSchema().orElseThrow())).isEmpty();
        assertThat(call(tool, "{\"service\":\"db\"}").firstText()).contains("> Partial data: loki (logs) failed: the source did "
                + "not answer in time (while running `" + ERROR_SEARCH + "`).");
    }

    @Test
    void aLogsSourceGivenUpAtTheToolsDeadline_stillNamesTheQueryItWasRunning() {
        // the fan-out itself is given up (its lone call ignores the interrupt), so nothing of it is kept but the listener
        CountDownLatch release = new CountDownLatch(1);
        ScriptedConnector stubborn = new ScriptedConnector().claimingInterruptible()
                .logs(ScriptedConnector.ignoringInterruptsUntil(release, new LogResult(List.of(), false, "")))
                .reportingLogs(GeneratePostmortemToolTest::logql);
        try {
            JsonObject report = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> structured(call(
                    tool(new ScriptedSources().add("zipkin", zipkin).add("loki", stubborn)), "{\"service\":\"db\",\"format\":\"json\"}")));
            assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).singleElement().satisfies(f -> {
                assertThat(f.getString("error")).isEqualTo("no answer within the tool's 0.6 s deadline");
                assertThat(f.getString("query")).isEqualTo(ERROR_SEARCH);
            });
        } finally {
            release.countDown();
        }
    }

    @Test
    void aLogsSourceThatRefusesTheSearch_isNamedWithItsQuery_redactedLikeTheHighlights() {
        ScriptedConnector broken = new ScriptedConnector()
                .logs(q -> {
                    throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "parse error at line 1, col 40");
                })
                .reportingLogs(q -> logql(q) + " # owner carol@example.net");
        ScriptedSources sources = new ScriptedSources().add("zipkin", zipkin).add("loki", broken);

        JsonObject report = structured(call(tool(sources), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).singleElement().satisfies(f -> {
            assertThat(f.getString("kind")).isEqualTo("bad_query");
            assertThat(f.getString("query")).isEqualTo(ERROR_SEARCH + " # owner [REDACTED:email]");
        });

        redaction = false;
        JsonObject unredacted = structured(call(tool(sources), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(unredacted.getJsonArray("failedSources").getJsonObject(0).getString("query"))
                .isEqualTo(ERROR_SEARCH + " # owner carol@example.net");
    }

    @Test
    void aLogsSourcesErrorMessage_isRedactedLikeTheHighlights_inTheJsonAndTheMarkdown() {
        // a logs backend's refusal may quote the line it choked on; query_logs redacts it, and so must the draft that is stored
        ScriptedConnector broken = new ScriptedConnector().logs(q -> {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "entry too large: login failed for carol@example.net");
        });
        ToolResult result = call(tool(new ScriptedSources().add("zipkin", zipkin).add("loki", broken)), "{\"service\":\"db\"}");

        JsonObject report = structured(result);
        assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).singleElement()
                .satisfies(f -> assertThat(f.getString("error")).isEqualTo("entry too large: login failed for [REDACTED:email]"));
        assertThat(report.toString()).doesNotContain("carol@example.net");
        assertThat(result.firstText()).contains("login failed for \\[REDACTED:email\\]").doesNotContain("carol@example.net");

        redaction = false;
        assertThat(structured(call(tool(new ScriptedSources().add("zipkin", zipkin).add("loki", broken)), "{\"service\":\"db\"}"))
                .getJsonArray("failedSources").getJsonObject(0).getString("error")).endsWith("carol@example.net");
    }

    @Test
    void whenOnlyTheWarningSearchSaidWhatItSent_itsQueryIsTheOneNamed() {
        // the error search fails before it sends anything (as Loki's does while it looks up the service's label)
        ScriptedConnector failing = new ScriptedConnector().logs(ScriptedConnector.unavailable("Loki answered HTTP 503"))
                .reportingLogs(q -> q.level().orElseThrow().equals("warn") ? logql(q) : null);
        JsonObject report = structured(call(tool(new ScriptedSources().add("loki", failing)), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).singleElement()
                .satisfies(f -> assertThat(f.getString("query")).isEqualTo("{service_name=\"db\"} | json | level=~\"(?i)warn\""));
    }

    @Test
    void aLogsConnectorThatDoesNotTellItsQuery_failsAsBefore_withoutAQueryMember() {
        // the SDK's default: a connector written before the listener existed
        ScriptedConnector failing = new ScriptedConnector().logs(ScriptedConnector.unavailable("Loki answered HTTP 503"));
        GeneratePostmortemTool tool = tool(new ScriptedSources().add("zipkin", zipkin).add("loki", failing));

        JsonObject report = structured(call(tool, "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).singleElement().satisfies(f -> {
            assertThat(f.getString("error")).isEqualTo("Loki answered HTTP 503");
            assertThat(f.containsKey("query")).isFalse();
        });
        assertThat(call(tool, "{\"service\":\"db\"}").firstText()).contains("> Partial data: loki (logs) failed: Loki answered HTTP 503.\n")
                .doesNotContain("while running");
    }

    @Test
    void whenNothingWasFoundBecauseTheSourcesDidNotAnswer_theNoSignalNoticeSaysSo_andDoesNotBlameTheServiceName() {
        ScriptedConnector late = new ScriptedConnector().traces(ScriptedConnector.hanging()).logs(ScriptedConnector.hanging());
        JsonObject report = structured(call(tool(new ScriptedSources().add("zipkin", late)), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getString("notice")).contains("and zipkin did not answer");
        assertThat(report.getJsonArray("followUps").getValuesAs(JsonString::getString))
                .noneSatisfy(f -> assertThat(f).contains("is the name the sources use"))
                .anySatisfy(f -> assertThat(f).startsWith("Rerun query_logs for db with level=error and duration 70m when zipkin"));
    }

    @Test
    void aDraftForANameNoSourceLists_saysSo_insteadOfReadingAsAQuietService() {
        // (the scripted traces and logs answer for any name, so they are left out: a typo finds nothing)
        ScriptedSources sources = new ScriptedSources().add("kubernetes", kubernetes).add("mesh", mesh)
                .add("prom", new ScriptedConnector().services("db", "web", "api"));
        JsonObject report = structured(call(tool(sources), "{\"service\":\"webb\",\"format\":\"json\"}"));
        assertThat(report.getString("note")).isEqualTo("No source lists a service named 'webb'; list_services shows the names. "
                + "Did you mean 'web'?");
        assertThat(call(tool(sources), "{\"service\":\"webb\"}").firstText()).endsWith("> No source lists a service named 'webb'; "
                + "list_services shows the names. Did you mean 'web'?\n");
        incidentScores();
        assertThat(structured(call(tool(sources), "{\"service\":\"db\",\"format\":\"json\"}")).containsKey("note")).isFalse();
    }

    @Test
    void forAServiceTheTopologyDoesNotKnow_noServiceOutsideTheScopeIsSaidToHaveNoPathToIt() {
        // a typo (dbb) is no node: the topology cannot tell whether db's degradation reaches it, so it must not say
        // "no path", which reads as "db is unrelated" and steers the agent away from the root cause it meant
        incidentScores();
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"dbb\",\"format\":\"json\"}"));
        List<JsonObject> outside = report.getJsonObject("timeline").getJsonArray("outsideScope").getValuesAs(JsonObject.class);
        assertThat(outside).extracting(o -> o.getString("service")).contains("db");
        assertThat(outside).as(outside.toString()).noneSatisfy(o -> assertThat(o.containsKey("reachesService")).isTrue());
        assertThat(report.getString("synopsis")).doesNotContain("no path");
        assertThat(call(tool(everything()), "{\"service\":\"dbb\"}").firstText()).doesNotContain("no path to dbb");
    }

    @Test
    void aServiceTheMetricsSpellInAnotherCase_isNotWalkedUnderTheTopologysSpelling_butTheBlastRadiusSaysWhichNodeAndHowToAsk() {
        // metric labels are free-form: Prometheus says Db, the cluster db. Names stay exact (the backends match
        // them exactly), so nothing is walked; the section offers the topology's name and the call that walks it
        anomaly("Db", "latency_p99", 5, 8, 600);
        JsonObject report = structured(call(tool(everything()), "{\"service\":\"Db\",\"format\":\"json\"}"));
        JsonObject blast = report.getJsonObject("blastRadius");
        assertThat(blast.getJsonArray("targets")).isEmpty();
        assertThat(blast.getJsonArray("unresolved").getValuesAs(JsonString::getString)).containsExactly("Db");
        assertThat(blast.getJsonArray("didYouMean").getValuesAs(JsonString::getString)).containsExactly("db");
        assertThat(blast.getBoolean("partial")).isFalse();
        assertThat(blast.getString("note")).isEqualTo("The topology does not know Db: nothing to walk (names are matched exactly, "
                + "case included). Did you mean 'db'? get_blast_radius with {\"service\": \"db\"} walks its blast radius.");
        assertThat(report.getJsonArray("followUps").getValuesAs(JsonString::getString)).contains("The topology does not know Db: "
                + "get_blast_radius for db (its spelling there) shows what its degradation reaches, if it is the same service.");
        assertThat(report.containsKey("note")).as("signals were found: no 'no source lists' note").isFalse();
        assertThat(UndeclaredMembers.in(report, tool(everything()).definition().outputSchema().orElseThrow())).isEmpty();

        String md = call(tool(everything()), "{\"service\":\"Db\"}").firstText();
        assertThat(md).contains("_The topology does not know Db: nothing to walk (names are matched exactly, case included). "
                + "Did you mean 'db'? get_blast_radius with {\"service\": \"db\"} walks its blast radius._");

        JsonObject namespaced = structured(call(tool(everything()), "{\"service\":\"prod/DB\",\"format\":\"json\"}"));
        assertThat(namespaced.getJsonObject("blastRadius").getJsonArray("didYouMean").getValuesAs(JsonString::getString))
                .containsExactly("prod/db");
        JsonObject known = structured(call(tool(everything()), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(known.getJsonObject("blastRadius").containsKey("didYouMean")).isFalse();
        JsonObject unknown = structured(call(tool(everything()), "{\"service\":\"ghost\",\"format\":\"json\"}"));
        assertThat(unknown.getJsonObject("blastRadius").containsKey("didYouMean")).as("nothing close").isFalse();
    }

    @Test
    void aTracesSourceThatFails_whileAnotherAnswers_marksRelatedTracesIncomplete() {
        ScriptedConnector tempo = new ScriptedConnector().traces(ScriptedConnector.unavailable("Tempo answered HTTP 500"));
        JsonObject report = structured(call(tool(everything().add("tempo", tempo)), "{\"service\":\"db\",\"format\":\"json\"}"));
        JsonObject traces = report.getJsonObject("traces");
        assertThat(traces.getBoolean("included")).isTrue();
        assertThat(traces.getInt("total")).isEqualTo(3);
        assertThat(traces.getBoolean("partial")).isTrue();
        assertThat(traces.getString("note")).isEqualTo("Incomplete: tempo failed: Tempo answered HTTP 500; traces only it holds are missing.");
        assertThat(report.getString("synopsis")).contains("3 related traces (incomplete: tempo did not answer)");
    }

    @Test
    void noTopologySourceAtAll_blastRadiusOmittedSayingWhatToConfigure() {
        JsonObject report = structured(call(tool(new ScriptedSources().add("zipkin", zipkin)), "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getJsonObject("blastRadius").getString("note")).isEqualTo("Blast radius omitted: no topology source is configured.");
        assertThat(report.getBoolean("partial")).isFalse();
    }

    @Test
    void spec4_4_logsConnectorReturnsEmpty_logHighlightsOmitted() {
        ScriptedConnector quiet = new ScriptedConnector().logs(q -> new LogResult(List.of(), false, ""));
        String md = call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("loki", quiet)), "{\"service\":\"db\"}").firstText();
        assertThat(headings(md)).doesNotContain("## Log highlights").contains("## Suggested follow-ups");
    }

    @Test
    void spec8_caps_10Traces_30BlastNodes_20TimelineRows() {
        List<TraceSummary> many = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            many.add(trace(Integer.toHexString(0x100 + i), 100 + i, i % 5 == 0));
        }
        List<TopologyNode> nodes = new ArrayList<>(List.of(new TopologyNode("service/db", "service", "db", "", Map.of())));
        List<TopologyEdge> edges = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            nodes.add(new TopologyNode("service/caller-" + i, "service", "caller-" + i, "", Map.of()));
            edges.add(new TopologyEdge("service/caller-" + i, "service/db", Relation.CALLS));
        }
        // db's episode (judged twice) and one per caller, onsets a minute apart: 26 episodes
        anomaly("db", "latency_p99", 10, 20, 55 * 60);
        anomaly("db", "latency_p99", 5, 22, 55 * 60);
        for (int i = 0; i < 25; i++) {
            anomaly("caller-" + i, "error_rate", 3, 5, (50 - i) * 60);
        }
        ScriptedSources sources = new ScriptedSources().add("mesh", new ScriptedConnector().topology(new Topology(nodes, edges)))
                .add("zipkin", new ScriptedConnector().traces(many));
        ToolResult answer = call(tool(sources), "{\"service\":\"db\"}");
        JsonObject report = structured(answer);
        assertThat(report.getJsonObject("traces").getJsonArray("items")).hasSize(10);
        assertThat(report.getJsonObject("traces").getInt("total")).isEqualTo(25);
        assertThat(report.getJsonObject("blastRadius").getJsonArray("nodes")).hasSize(30);
        assertThat(report.getJsonObject("blastRadius").getInt("totalNodes")).isEqualTo(41);
        // spec 8: 20 timeline rows, here the 20 earliest episodes
        JsonObject timeline = report.getJsonObject("timeline");
        assertThat(timeline.getJsonArray("episodes")).hasSize(20);
        assertThat(timeline.getInt("totalEpisodes")).isEqualTo(26);
        assertThat(timeline.getInt("omittedEpisodes")).isEqualTo(6);
        assertThat(timeline.getJsonArray("episodes").getJsonObject(0).getString("service")).isEqualTo("db");
        assertThat(timeline.getJsonArray("episodes").getJsonObject(19).getString("service")).isEqualTo("caller-18");
        assertThat(answer.firstText()).contains("11 more resources not shown").contains("6 later episodes not shown");
    }

    @Test
    void spec4_4_template_expandsTokens_andLeavesUnknownTokensVerbatim() {
        incidentScores();
        template = () -> Optional.of(PostmortemTemplate.of("# Incident {{service}} ({{window}}, {{ from }} to {{to}}, tenant "
                + "[{{tenant}}])\n\n{{synopsis}}\n\n## Impact\n{{blastRadius}}\n\n## Owner\n{{owner}}\n\n{{followUps}}\n"));
        String md = call(tool(everything()), Principal.apiKey("ops", ""), "{\"service\":\"db\"}").firstText();
        assertThat(md).startsWith("# Incident db (1h, 2025-03-10T09:00:00Z to 2025-03-10T10:00:00Z, tenant [])\n\nPost-mortem draft for db");
        assertThat(md).contains("## Impact\n").contains("service/prod/api");
        assertThat(md).contains("## Owner\n{{owner}}");
        assertThat(headings(md)).containsExactly("## Impact", "## Owner");
    }

    @Test
    void spec4_4_anUnreadableTemplate_fallsBackToTheBuiltInLayout() {
        // the wiring's supplier answers empty for a missing or unreadable file; one that throws is treated the same
        template = () -> {
            throw new IllegalStateException("/etc/omcp/postmortem.md: permission denied");
        };
        String md = call(tool(everything()), "{\"service\":\"db\"}").firstText();
        assertThat(md).startsWith("# Post-mortem draft: db\n");
        assertThat(headings(md)).startsWith("## Synopsis").doesNotContain("permission denied");
    }

    @Test
    void spec4_4_theNoSignalNotice_isPrependedToACustomTemplateToo() {
        template = () -> Optional.of(PostmortemTemplate.of("# {{service}}\n{{synopsis}}\n"));
        ScriptedConnector quiet = new ScriptedConnector().logs(q -> new LogResult(List.of(), false, ""));
        ToolResult answer = call(tool(new ScriptedSources().add("loki", quiet)), "{\"service\":\"ghost\"}");
        assertThat(answer.firstText()).startsWith("> **No signal: no anomaly scores, traces or log highlights were found for ghost");
        assertThat(answer.firstText()).contains("# ghost\n");
        assertThat(structured(answer).getString("notice")).startsWith("No signal");
    }

    @Test
    void theCallersTenant_scopesTheHistory_andIsNamedInTheReport() {
        score("acme", "db", "latency_p99", 10, 15, true);
        score("globex", "db", "latency_p99", 10, 30, true);
        JsonObject report = structured(call(tool(new ScriptedSources()), Principal.apiKey("acme-bot", "acme"),
                "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getString("tenant")).isEqualTo("acme");
        assertThat(report.getJsonObject("timeline").getJsonArray("episodes")).singleElement()
                .satisfies(r -> assertThat(r.asJsonObject().getJsonNumber("peakScore").doubleValue()).isEqualTo(15.0));
    }

    @Test
    void aHangingSource_stillGivesADraftWithinTheDeadline_markedPartial() {
        ScriptedConnector stuck = new ScriptedConnector().traces(ScriptedConnector.hanging());
        JsonObject report = structured(call(tool(new ScriptedSources().add("kubernetes", kubernetes).add("tempo", stuck).add("loki", loki)),
                "{\"service\":\"db\",\"format\":\"json\"}"));
        assertThat(report.getBoolean("partial")).isTrue();
        assertThat(report.getJsonArray("failedSources").getJsonObject(0).getString("signal")).isEqualTo("traces");
        assertThat(report.getJsonArray("failedSources").getJsonObject(0).getString("kind")).isEqualTo("timeout");
        assertThat(report.getJsonObject("traces").getString("note")).startsWith("Related traces omitted: every traces source failed");
        assertThat(report.getJsonObject("blastRadius").getBoolean("included")).isTrue();
    }

    @Test
    void aSourceThatIgnoresItsTimeout_doesNotHoldTheDraftPastTheToolsDeadline() {
        // the toolkit of these tests: 300 ms per source, 600 ms per call. The logs source claims to be
        // interruptible (so it runs on the caller's thread) but answers only when released.
        CountDownLatch release = new CountDownLatch(1);
        ScriptedConnector stubborn = new ScriptedConnector().claimingInterruptible()
                .logs(ScriptedConnector.ignoringInterruptsUntil(release, new LogResult(List.of(), false, "")));
        GeneratePostmortemTool tool = tool(new ScriptedSources().add("kubernetes", kubernetes).add("zipkin", zipkin).add("loki", stubborn));
        try {
            long started = System.nanoTime();
            JsonObject report = assertTimeoutPreemptively(Duration.ofSeconds(5),
                    () -> structured(call(tool, "{\"service\":\"db\",\"format\":\"json\"}")));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1500));
            assertThat(report.getBoolean("partial")).isTrue();
            assertThat(report.getJsonArray("failedSources").getValuesAs(JsonObject.class)).singleElement().satisfies(f -> {
                assertThat(f.getString("source")).isEqualTo("loki");
                assertThat(f.getString("signal")).isEqualTo("logs");
                assertThat(f.getString("kind")).isEqualTo("timeout");
                assertThat(f.getString("error")).isEqualTo("no answer within the tool's 0.6 s deadline");
            });
            // what answered in time is all there
            assertThat(report.getJsonObject("blastRadius").getBoolean("included")).isTrue();
            assertThat(report.getJsonObject("traces").getInt("total")).isEqualTo(3);
        } finally {
            release.countDown();
        }
    }

    @Test
    void theSourcesGetTheDeadlineLessWhatBuildingTheDraftNeeds_aTwentiethAtMostOneSecond() {
        // docs/configuration.md: OMCP_TOOL_DEADLINE defaults to 20 s
        assertThat(GeneratePostmortemTool.gatheringBudget(Duration.ofSeconds(20))).isEqualTo(Duration.ofSeconds(19));
        assertThat(GeneratePostmortemTool.gatheringBudget(Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(59));
        assertThat(GeneratePostmortemTool.gatheringBudget(Duration.ofMillis(600))).isEqualTo(Duration.ofMillis(570));
    }

    @Test
    void aCallerNotEntitledToTheService_isRefusedBeforeAnySourceIsAsked() {
        entitlement = (principal, tool, service) -> new ServiceEntitlement.Decision.NotEntitled(
                "credential ops is bound to product storefront, which does not include " + service);
        ToolResult answer = call(tool(everything()), "{\"service\":\"db\"}");
        assertThat(answer.isError()).isTrue();
        assertThat(answer.firstText()).isEqualTo("generate_postmortem: not entitled to db: credential ops is bound to product "
                + "storefront, which does not include db");
        assertThat(kubernetes.topologyNamespaces).isEmpty();
        assertThat(zipkin.traceQueries).isEmpty();
        assertThat(loki.logQueries).isEmpty();
    }

    @Test
    void badArguments_areErrorsThatSayWhatIsWrong() {
        GeneratePostmortemTool tool = tool(new ScriptedSources());
        assertThat(call(tool, "{}").firstText()).isEqualTo("Invalid arguments for generate_postmortem: arguments.service: is required");
        assertThat(call(tool, "{\"service\":\"db\",\"format\":\"pdf\"}").firstText()).contains("arguments.format");
        assertThat(call(tool, "{\"service\":\"db\",\"duration\":\"0h\"}").firstText()).contains("arguments.duration");
        assertThat(call(tool, "{\"service\":\"db\",\"duration\":\"45d\"}").firstText())
                .isEqualTo("generate_postmortem: duration '45d' is longer than the longest window, 30d; send 30d or less");
    }
}
