package dev.omcp.core.analysis.postmortem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.analysis.blast.BlastRadius;
import dev.omcp.core.analysis.blast.BlastRadiusOptions;
import dev.omcp.core.analysis.blast.BlastRadiusWalker;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.core.analysis.topology.ClusterFixture;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PostmortemTest {
    private static final Instant FROM = Instant.parse("2025-03-10T09:00:00Z");
    private static final Instant TO = Instant.parse("2025-03-10T10:00:00Z");
    private final PostmortemBuilder builder = new PostmortemBuilder();

    private static final LogRange WHOLE_WINDOW = LogRange.within(FROM, TO, Optional.empty());
    private static final Situation ALL_UP = new Situation(true, SourceState.available(), SourceState.available(), SourceState.available());

    /** Rows a minute apart, alternating db and api; every third an anomaly dated 30 s before it was judged (6 min apart per signal). */
    private static List<HistoryRow> rows(int n) {
        List<HistoryRow> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean anomalous = i % 3 == 0;
            Instant at = FROM.plusSeconds(60L * i);
            rows.add(new HistoryRow(i % 2 == 0 ? "db" : "api", i % 2 == 0 ? "latency_p99" : "error_rate", at, i, anomalous,
                    anomalous ? Optional.of("step") : Optional.empty(), anomalous ? Optional.of(at.minusSeconds(30)) : Optional.empty()));
        }
        return rows;
    }

    private static HistoryRow anomaly(String service, String signal, Instant at, double score, Instant onset) {
        return new HistoryRow(service, signal, at, score, true, Optional.of("step"), Optional.of(onset));
    }

    private static List<TraceSummary> traces(int n) {
        List<TraceSummary> t = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            t.add(new TraceSummary(String.format("%032x", i + 1), "GET /orders", "api", FROM, 1000 - i, 5, i < 3));
        }
        return t;
    }

    private static BlastRadius blast() {
        return new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("db"), BlastRadiusOptions.defaults());
    }

    private static PostmortemInput input(List<HistoryRow> timeline, Optional<BlastRadius> blast, List<TraceSummary> traces,
            List<LogHighlight> logs, Situation situation) {
        return new PostmortemInput("db", "1h", FROM, TO, "acme", timeline, List.of(), Map.of(), blast,
                ContributingSignal.fromHistory(timeline), traces, logs, WHOLE_WINDOW, situation);
    }

    private static final List<LogHighlight> LOGS = List.of(new LogHighlight(FROM.plusSeconds(90), "connection pool exhausted", 42));

    @Test
    void markdown_hasEverySectionInThePrescribedOrder() {
        String md = PostmortemMarkdown.render(builder.build(input(rows(5), Optional.of(blast()), traces(3), LOGS, ALL_UP)));
        List<String> headings = md.lines().filter(l -> l.startsWith("## ")).toList();
        // spec 4.4: Synopsis; Anomaly timeline; Blast radius at peak; Contributing signals; Related traces; Log highlights; Suggested follow-ups
        assertThat(headings).containsExactly("## Synopsis", "## Anomaly timeline", "## Blast radius at peak", "## Contributing signals",
                "## Related traces", "## Log highlights", "## Suggested follow-ups");
        assertThat(md).startsWith("# Post-mortem draft: db\n");
        assertThat(md).contains("connection pool exhausted").contains("(x42)");
    }

    @Test
    void logCountsThatAreLowerBounds_areMarkedInMarkdownAndJson() {
        List<LogHighlight> cut = List.of(new LogHighlight(FROM.plusSeconds(90), "slow query", 5000, true), LOGS.getFirst());
        PostmortemReport report = builder.build(input(rows(5), Optional.of(blast()), traces(3), cut, ALL_UP));
        String md = PostmortemMarkdown.render(report);
        assertThat(md).contains("(x5000+): `slow query`").contains("(x42): `connection pool exhausted`")
                .contains("Counts marked + are lower bounds");
        assertThat(report.toJson().getJsonArray("logHighlights").getJsonObject(0).getBoolean("countIsLowerBound")).isTrue();
        assertThat(report.toJson().getJsonArray("logHighlights").getJsonObject(1).containsKey("countIsLowerBound")).isFalse();
        assertThat(PostmortemMarkdown.render(builder.build(input(rows(5), Optional.of(blast()), traces(3), LOGS, ALL_UP))))
                .doesNotContain("lower bounds");
    }

    @Test
    void caps_20TimelineRows_30BlastNodes_top10Signals_10Traces() {
        List<HistoryRow> many = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            // judged twice each, listed in reverse: the cap keeps the earliest onsets, not the first rows
            Instant onset = FROM.plusSeconds(60L * (24 - i));
            many.add(anomaly("svc-" + (24 - i), "latency_p99", onset.plusSeconds(120), i, onset));
            many.add(anomaly("svc-" + (24 - i), "latency_p99", onset.plusSeconds(600), i + 1, onset.plusSeconds(30)));
        }
        for (int i = 0; i < 15; i++) {
            many.add(new HistoryRow("quiet-" + i, "cpu", FROM.plusSeconds(i), i, false, Optional.empty(), Optional.empty()));
        }
        List<TopologyEdge> edges = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            edges.add(new TopologyEdge("service/caller-" + i, "service/db", Relation.CALLS));
        }
        BlastRadius big = new BlastRadiusWalker().walk(TopologyGraph.of("mesh", new Topology(List.of(), edges)), List.of("service/db"),
                BlastRadiusOptions.defaults());
        PostmortemReport r = builder.build(new PostmortemInput("db", "1h", FROM, TO, "", many, List.of(), Map.of(), Optional.of(big),
                ContributingSignal.fromHistory(many), traces(14), List.of(), WHOLE_WINDOW, ALL_UP));
        // spec 8: at most 20 timeline rows; one per episode, the 20 earliest onsets, earliest first
        assertThat(r.timeline().episodes()).hasSize(20);
        assertThat(r.timeline().episodes()).extracting(AnomalyEpisode::onset).isSorted();
        assertThat(r.timeline().episodes()).extracting(AnomalyEpisode::service).startsWith("svc-0", "svc-1").endsWith("svc-19");
        assertThat(r.timeline().episodes()).allSatisfy(e -> assertThat(e.judgments()).isEqualTo(2));
        assertThat(r.timeline().totalEpisodes()).isEqualTo(25);
        assertThat(r.timeline().omitted()).isEqualTo(5);
        assertThat(r.timeline().scoresRecorded()).isEqualTo(65);
        assertThat(r.timeline().anomalousScores()).isEqualTo(50);
        PostmortemReport.BlastIncluded b = (PostmortemReport.BlastIncluded) r.blastRadius();
        assertThat(b.nodes()).hasSize(30);
        assertThat(b.totalNodes()).isEqualTo(41);
        assertThat(r.signals()).hasSize(10);
        assertThat(r.signals()).extracting(ContributingSignal::meanScore).isSortedAccordingTo((x, y) -> Double.compare(y, x));
        PostmortemReport.TracesIncluded t = (PostmortemReport.TracesIncluded) r.traces();
        assertThat(t.traces()).hasSize(10);
        assertThat(t.total()).isEqualTo(14);
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("5 later episodes not shown").contains("11 more resources not shown").contains("Top 10 of 40 signals")
                .contains("10 of 14 related traces shown");
        assertThat(md.lines().filter(l -> l.startsWith("| service/caller-")).count()).isEqualTo(29);
    }

    @Test
    void aLatencyAboveTheLargestBucket_leadsTheContributingSignalsAndThePeak_andEveryRenderingSaysItsScoreIsALowerBound() {
        Instant onset = FROM.plusSeconds(600);
        HistoryRow aboveBucket = new HistoryRow("db", "latency_p99", FROM.plusSeconds(1200), 20, true, Optional.of("step"),
                Optional.of(onset), true);
        List<HistoryRow> timeline = List.of(
                anomaly("api", "latency_p99", FROM.plusSeconds(1200), 150, onset.plusSeconds(60)),
                anomaly("api", "error_rate", FROM.plusSeconds(1200), 40, onset.plusSeconds(60)),
                aboveBucket);
        PostmortemReport r = builder.build(input(timeline, Optional.of(blast()), traces(1), LOGS, ALL_UP));

        // by mean score alone the +Inf p99 (20, a lower bound) would come last, behind a p99 150 sigma off that was measured
        assertThat(r.signals()).extracting(ContributingSignal::service, ContributingSignal::signal).containsExactly(
                org.assertj.core.groups.Tuple.tuple("db", "latency_p99"), org.assertj.core.groups.Tuple.tuple("api", "latency_p99"),
                org.assertj.core.groups.Tuple.tuple("api", "error_rate"));
        assertThat(r.signals().getFirst().levelAboveLargestBucket()).isTrue();
        assertThat(r.signals().get(1).levelAboveLargestBucket()).isFalse();
        assertThat(r.synopsis()).contains("Peak anomaly score at least 20.0 on latency_p99 of db",
                "above the largest histogram bucket, so the score is a lower bound");
        assertThat(r.timeline().episodes().getFirst().levelAboveLargestBucket()).isTrue();

        String md = PostmortemMarkdown.render(r);
        String signals = md.substring(md.indexOf("## Contributing signals"), md.indexOf("## Related traces"));
        assertThat(signals).contains("| db | latency_p99 | 20.0+ | 20.0+ | 1 | 1 |", "| api | latency_p99 | 150.0 | 150.0 | 1 | 1 |",
                PostmortemMarkdown.LOWER_BOUND_NOTE, "listed first");
        String timelineSection = md.substring(md.indexOf("## Anomaly timeline"), md.indexOf("## Blast radius"));
        assertThat(timelineSection).contains("| step | 20.0+ |", PostmortemMarkdown.LOWER_BOUND_NOTE);

        JsonObject json = r.toJson();
        List<JsonObject> items = json.getJsonObject("signals").getJsonArray("items").getValuesAs(JsonObject.class);
        assertThat(items.get(0).getBoolean("levelAboveLargestBucket")).isTrue();
        assertThat(items.get(1).containsKey("levelAboveLargestBucket")).isFalse();
        List<JsonObject> episodes = json.getJsonObject("timeline").getJsonArray("episodes").getValuesAs(JsonObject.class);
        assertThat(episodes.get(0).getBoolean("levelAboveLargestBucket")).isTrue();
        assertThat(episodes.get(1).containsKey("levelAboveLargestBucket")).isFalse();
    }

    @Test
    void withoutALevelAboveTheLargestBucket_noScoreIsMarkedAsALowerBound() {
        PostmortemReport r = builder.build(input(rows(12), Optional.of(blast()), traces(1), LOGS, ALL_UP));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).doesNotContain(PostmortemMarkdown.LOWER_BOUND_NOTE).doesNotContain("lower bound");
        assertThat(r.synopsis()).contains("Peak anomaly score 1").doesNotContain("Peak anomaly score at least");
        assertThat(r.toJson().toString()).doesNotContain("levelAboveLargestBucket");
    }

    @Test
    void aContributingSignal_refusesMoreSamplesAboveTheBucketThanAnomalies() {
        assertThatThrownBy(() -> new ContributingSignal("db", "latency_p99", 20, 20, 3, 1, 2))
                .hasMessageContaining("between 0 and the 1 anomalous samples of latency_p99 of db, got 2");
    }

    @Test
    void theTraceCounts_coverEveryFoundTrace_notJustTheTenListed() {
        List<TraceSummary> found = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            found.add(new TraceSummary(String.format("%032x", i + 1), "GET /orders", "api", FROM, 1000 - i, 5, i < 12 || i % 50 == 0));
        }
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), found, List.of(), ALL_UP));
        PostmortemReport.TracesIncluded t = (PostmortemReport.TracesIncluded) r.traces();
        assertThat(t.traces()).hasSize(10);
        assertThat(t.total()).isEqualTo(600);
        assertThat(t.errorCount()).isEqualTo(23);
        assertThat(t.listedErrors()).isEqualTo(10);
        assertThat(t.totalIsLowerBound()).isFalse();
        assertThat(r.synopsis()).contains(" 600 related traces, 23 with errors.");
        assertThat(r.toJson().getJsonObject("traces").getInt("errorCount")).isEqualTo(23);
        assertThat(PostmortemMarkdown.render(r)).contains("**10 of 23 error traces:** `").contains("_10 of 600 related traces shown");

        List<TraceSummary> atTheCap = new ArrayList<>(found);
        while (atTheCap.size() < PostmortemReport.RANKED_TRACES) {
            atTheCap.add(new TraceSummary(String.format("%032x", atTheCap.size() + 1), "GET /orders", "api", FROM, 1, 5, false));
        }
        PostmortemReport capped = builder.build(input(rows(3), Optional.of(blast()), atTheCap, List.of(), ALL_UP));
        assertThat(capped.synopsis()).as("the search stopped at its cap: more may exist, and the sentence starts with a capital")
                .contains(". At least 1000 related traces, 23 with errors.").doesNotContain("at least 1000");
        assertThat(capped.toJson().getJsonObject("traces").getBoolean("totalIsLowerBound")).isTrue();
    }

    @Test
    void errorTraces_areCalledOut() {
        String md = PostmortemMarkdown.render(builder.build(input(rows(3), Optional.of(blast()), traces(5), List.of(), ALL_UP)));
        assertThat(md).contains("**3 error traces:** `00000000000000000000000000000001`");
        assertThat(md).contains("| **error** |");
        assertThat(md).contains("Open error trace 00000000000000000000000000000001");
    }

    @Test
    void noHistorySink_synopsisSaysNoScoresRecordedAndAFollowUpNamesTheVariable() {
        Situation noSink = new Situation(false, SourceState.available(), SourceState.available(), SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), traces(1), List.of(), noSink));
        assertThat(r.synopsis()).contains("anomaly-history sink is not configured: no scores recorded");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE"));
        PostmortemReport withSink = builder.build(input(rows(3), Optional.of(blast()), traces(1), List.of(), ALL_UP));
        assertThat(withSink.synopsis()).doesNotContain("no scores recorded");
        assertThat(withSink.followUps()).noneSatisfy(f -> assertThat(f).contains("OMCP_ANOMALY_HISTORY_REMOTE_WRITE"));
    }

    @Test
    void noTracesCapableConnector_omitsRelatedTracesWithANote() {
        Situation noTraces = new Situation(true, SourceState.notConfigured(), SourceState.available(), SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), List.of(), List.of(), noTraces));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("## Related traces\n\n_Related traces omitted: no traces-capable connector is configured._");
        JsonObject traces = r.toJson().getJsonObject("traces");
        assertThat(traces.getBoolean("included")).isFalse();
        assertThat(traces.getString("note")).contains("no traces-capable connector");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).contains("traces-capable connector"));
    }

    @Test
    void topologyProviderDown_omitsBlastRadiusWithANote() {
        Situation down = new Situation(true, SourceState.available(), SourceState.unavailable(List.of(
                new SourceFailure("kubernetes", SourceFailure.Kind.ERROR, "Kubernetes API answered HTTP 503"))), SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.empty(), traces(1), List.of(), down));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("## Blast radius at peak\n\n_Blast radius omitted: the topology provider is down "
                + "(kubernetes failed: Kubernetes API answered HTTP 503)._");
        assertThat(r.toJson().getJsonObject("blastRadius").getBoolean("included")).isFalse();
        assertThat(r.toJson().getJsonObject("blastRadius").getBoolean("partial")).isTrue();
        assertThat(r.synopsis()).contains("Blast radius unknown: the topology provider is down");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("Restore kubernetes and rerun get_blast_radius for db"));
    }

    @Test
    void aTopologyProviderThatTimedOut_isToldApartFromOneThatIsDown() {
        Situation late = new Situation(true, SourceState.available(), SourceState.unavailable(List.of(
                new SourceFailure("zipkin", SourceFailure.Kind.TIMEOUT, "the source did not answer in time"))), SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.empty(), traces(1), List.of(), late));
        assertThat(r.toJson().getJsonObject("blastRadius").getString("note")).isEqualTo("Blast radius omitted: the topology provider "
                + "did not answer in time (zipkin timed out: the source did not answer in time).");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("Rerun get_blast_radius for db when zipkin answers in time"));
        assertThat(r.timeline().scopeNote()).hasValueSatisfying(n -> assertThat(n).startsWith("Scope incomplete: db alone"));
    }

    @Test
    void aTopologySourceThatTimedOut_whileAnotherAnswered_makesTheBlastRadiusAndTheScopeSayTheyAreIncomplete() {
        Situation partial = new Situation(true, SourceState.available(), SourceState.partial(List.of(
                new SourceFailure("zipkin", SourceFailure.Kind.TIMEOUT, "the source did not answer in time"))), SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), traces(1), LOGS, partial));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("## Blast radius at peak\n\n_Incomplete: zipkin timed out: the source did not answer in time. The "
                + "resources and calls only it reports are missing, so more may be affected than listed here._\n\nAt least ");
        JsonObject blast = r.toJson().getJsonObject("blastRadius");
        assertThat(blast.getBoolean("included")).isTrue();
        assertThat(blast.getBoolean("partial")).isTrue();
        assertThat(blast.getString("note")).startsWith("Incomplete: zipkin timed out");
        assertThat(r.synopsis()).contains("Blast radius incomplete (zipkin did not answer): at least ")
                .contains(" in an incomplete scope (the topology did not fully answer).");
        JsonObject timeline = r.toJson().getJsonObject("timeline");
        assertThat(timeline.getBoolean("partial")).isTrue();
        assertThat(timeline.getString("note")).startsWith("Scope incomplete: zipkin timed out");
        assertThat(md).contains("## Anomaly timeline\n\n_Scope incomplete: zipkin timed out");
        // no follow-up treats the walk as the whole radius
        assertThat(r.followUps()).noneSatisfy(f -> assertThat(f).startsWith("Tell the owners"));
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("Rerun get_blast_radius for db when zipkin answers in time")
                .contains("The blast radius above is incomplete: it lists at least ").endsWith("tell the owners once it is whole."));
    }

    @Test
    void aTracesSourceThatFailed_whileAnotherAnswered_marksRelatedTracesIncomplete() {
        Situation partial = new Situation(true, SourceState.partial(List.of(
                new SourceFailure("tempo", SourceFailure.Kind.ERROR, "Tempo answered HTTP 500"))), SourceState.available(), SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), traces(2), LOGS, partial));
        JsonObject traces = r.toJson().getJsonObject("traces");
        assertThat(traces.getBoolean("included")).isTrue();
        assertThat(traces.getBoolean("partial")).isTrue();
        assertThat(traces.getString("note")).isEqualTo("Incomplete: tempo failed: Tempo answered HTTP 500; traces only it holds are missing.");
        assertThat(PostmortemMarkdown.render(r)).contains("## Related traces\n\n_Incomplete: tempo failed");
        assertThat(r.synopsis()).contains("2 related traces (incomplete: tempo did not answer), 2 with errors.");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("Restore tempo and rerun query_traces for db"));
    }

    @Test
    void aLogsSourceThatTimedOut_keepsTheLogHighlightsSectionWithANote_ratherThanLeavingItOut() {
        Situation logsLate = new Situation(true, SourceState.available(), SourceState.available(), SourceState.unavailable(List.of(
                new SourceFailure("loki", SourceFailure.Kind.TIMEOUT, "the source did not answer in time"))));
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), traces(1), List.of(), logsLate));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("## Log highlights\n\n_Log highlights unavailable: loki timed out: the source did not answer in time._");
        JsonObject json = r.toJson();
        assertThat(json.getJsonArray("sections").toString()).contains("logHighlights");
        JsonObject search = json.getJsonObject("logSearch");
        assertThat(search.getBoolean("partial")).isTrue();
        assertThat(search.getString("note")).startsWith("Log highlights unavailable: loki timed out");
        assertThat(r.synopsis()).contains("Logs not searched: loki timed out: the source did not answer in time.");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("Rerun query_logs for db with level=error and duration ")
                .endsWith("The post-mortem's log search was incomplete."));
        assertThat(PostmortemTemplate.of("[{{logHighlights}}]").render(r)).startsWith("[_Log highlights unavailable: loki timed out");
    }

    @Test
    void logRange_isTheWholeWindowUpToSixHours_elseSixHoursFromShortlyBeforeTheOnset_elseTheLastSix() {
        Instant now = Instant.parse("2025-03-10T10:00:00Z");
        assertThat(LogRange.within(now.minus(Duration.ofHours(6)), now, Optional.of(now.minusSeconds(60))))
                .isEqualTo(new LogRange(now.minus(Duration.ofHours(6)), now, Optional.empty()));
        Instant threeDaysAgo = now.minus(Duration.ofDays(3));
        assertThat(LogRange.within(now.minus(Duration.ofDays(7)), now, Optional.of(threeDaysAgo)))
                .isEqualTo(new LogRange(threeDaysAgo.minus(Duration.ofMinutes(15)), threeDaysAgo.plus(Duration.ofMinutes(345)),
                        Optional.of(threeDaysAgo)));
        assertThat(LogRange.within(now.minus(Duration.ofDays(7)), now, Optional.of(now.minusSeconds(600))).to()).isEqualTo(now);
        // an onset at the window's very start: the range cannot begin before the window
        Instant weekAgo = now.minus(Duration.ofDays(7));
        assertThat(LogRange.within(weekAgo, now, Optional.of(weekAgo)).from()).isEqualTo(weekAgo);
        assertThat(LogRange.within(weekAgo, now, Optional.empty())).isEqualTo(new LogRange(now.minus(Duration.ofHours(6)), now, Optional.empty()));
    }

    @Test
    void emptyLogs_leaveTheLogHighlightsSectionOut() {
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), traces(1), List.of(), ALL_UP));
        assertThat(PostmortemMarkdown.render(r)).doesNotContain("Log highlights");
        JsonObject json = r.toJson();
        assertThat(json.containsKey("logHighlights")).isFalse();
        assertThat(json.getJsonArray("sections").getValuesAs(jakarta.json.JsonString.class)).extracting(jakarta.json.JsonString::getString)
                .containsExactly("synopsis", "timeline", "blastRadius", "signals", "traces", "followUps");
    }

    @Test
    void json_hasTheSameContentAsTheMarkdown() {
        PostmortemReport r = builder.build(input(rows(25), Optional.of(blast()), traces(12), LOGS, ALL_UP));
        JsonObject json = r.toJson();
        assertThat(json.getString("synopsis")).isEqualTo(r.synopsis());
        // rows(25): nine anomalies, each its own episode (onsets six minutes apart per signal)
        JsonObject timeline = json.getJsonObject("timeline");
        assertThat(timeline.getJsonArray("episodes")).hasSize(9);
        assertThat(timeline.getInt("totalEpisodes")).isEqualTo(9);
        assertThat(timeline.getInt("omittedEpisodes")).isZero();
        assertThat(timeline.getInt("scoresRecorded")).isEqualTo(25);
        assertThat(timeline.getInt("anomalousScores")).isEqualTo(9);
        assertThat(timeline.getInt("onsetToleranceSeconds")).isEqualTo(300);
        JsonObject first = timeline.getJsonArray("episodes").getJsonObject(0);
        assertThat(first.getString("service")).isEqualTo("db");
        assertThat(first.getString("onset")).isEqualTo("2025-03-10T08:59:30Z");
        assertThat(first.getBoolean("onsetKnown")).isTrue();
        assertThat(first.getString("kind")).isEqualTo("step");
        assertThat(first.getInt("judgments")).isEqualTo(1);
        assertThat(first.containsKey("measure")).isFalse();
        assertThat(json.getJsonObject("traces").getJsonArray("items")).hasSize(10);
        assertThat(json.getJsonArray("followUps")).hasSize(r.followUps().size());
        assertThat(json.getJsonArray("logHighlights").getJsonObject(0).getInt("occurrences")).isEqualTo(42);
        assertThat(json.getString("tenant")).isEqualTo("acme");
        assertThat(json.getJsonArray("sections")).hasSize(7);
    }

    @Test
    void noSignal_prependsANoticeToTheBuiltInLayoutAndToACustomTemplate() {
        PostmortemReport r = builder.build(input(List.of(), Optional.of(blast()), List.of(), List.of(), ALL_UP));
        assertThat(r.noSignalNotice()).isPresent();
        String md = PostmortemMarkdown.render(r);
        assertThat(md.lines().skip(2).findFirst().orElseThrow()).startsWith("> **No signal:");
        String custom = PostmortemTemplate.of("# {{service}}\n{{synopsis}}\n").render(r);
        assertThat(custom).startsWith("> **No signal:");
        assertThat(custom).contains("# db\nPost-mortem draft for db");
        assertThat(r.toJson().getString("notice")).startsWith("No signal:");
        assertThat(r.followUps().getFirst()).contains("list_services");
    }

    @Test
    void template_expandsEveryTokenKeepsUnknownOnesAndNeverReexpandsData() {
        List<LogHighlight> sneaky = List.of(new LogHighlight(FROM, "user typed {{synopsis}} | and {{service}}", 1));
        PostmortemReport r = builder.build(input(rows(3), Optional.of(blast()), traces(2), sneaky, ALL_UP));
        String template = "S={{service}} W={{ window }} F={{from}} T={{to}} N={{tenant}}\n{{synopsis}}\n{{timeline}}\n{{blastRadius}}\n"
                + "{{signals}}\n{{traces}}\n{{logHighlights}}\n{{followUps}}\n{{unknownToken}} {{ service";
        String out = PostmortemTemplate.of(template).render(r);
        assertThat(out).startsWith("S=db W=1h F=2025-03-10T09:00:00Z T=2025-03-10T10:00:00Z N=acme\n");
        assertThat(out).contains(r.synopsis()).contains("| Onset (UTC) |").contains("| Resource |").contains("| Service | Signal | Mean score")
                .contains("| Trace |").contains("1. ");
        assertThat(out).contains("{{unknownToken}} {{ service");
        assertThat(out).contains("`user typed {{synopsis}} | and {{service}}`");
        assertThat(out).doesNotContain("{{timeline}}");
    }

    @Test
    void template_omittedSectionsExpandToTheirNoteAndMissingLogsToNothing() {
        Situation none = new Situation(true, SourceState.notConfigured(), SourceState.notConfigured(), SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.empty(), List.of(), List.of(), none));
        String out = PostmortemTemplate.of("[{{blastRadius}}][{{traces}}][{{logHighlights}}]").render(r);
        assertThat(out).isEqualTo("[_Blast radius omitted: no topology source is configured._]"
                + "[_Related traces omitted: no traces-capable connector is configured._][]");
    }

    @Test
    void oversizedTemplate_isRefusedSoTheCallerFallsBack() {
        assertThatThrownBy(() -> PostmortemTemplate.of("x".repeat(PostmortemTemplate.MAX_LENGTH + 1)))
                .hasMessageContaining("at most 262144");
    }

    @Test
    void aTemplateThatWouldExpandPastItsLimit_givesTheBuiltInLayout_notADraftOfHundredsOfMegabytes() {
        PostmortemReport r = builder.build(input(rows(60), Optional.of(blast()), traces(10), LOGS, ALL_UP));
        String token = "{{timeline}}";
        PostmortemTemplate amplifying = PostmortemTemplate.of(token.repeat(PostmortemTemplate.MAX_LENGTH / token.length()));

        String out = amplifying.render(r);

        assertThat(out.length()).isLessThanOrEqualTo(PostmortemTemplate.MAX_RENDERED_LENGTH);
        assertThat(out).isEqualTo(PostmortemMarkdown.render(r));
        // a template that repeats its sections a few times is still rendered
        String twice = "{{timeline}}\n{{blastRadius}}\n{{timeline}}\n{{blastRadius}}\n" + "x".repeat(PostmortemTemplate.MAX_LENGTH - 100);
        assertThat(PostmortemTemplate.of(twice).render(r)).startsWith("| Onset (UTC) |").endsWith("xxx");
    }

    @Test
    void aTenantFromAnIdentityProvider_cannotAddLinesToACustomTemplate() {
        PostmortemInput in = new PostmortemInput("db", "1h", FROM, TO, "acme\n# Injected heading\r\n| a | b |", rows(3), List.of(),
                Map.of(), Optional.of(blast()), ContributingSignal.fromHistory(rows(3)), traces(1), LOGS, WHOLE_WINDOW, ALL_UP);

        String out = PostmortemTemplate.of("Tenant: {{tenant}}\n").render(builder.build(in));

        assertThat(out).isEqualTo("Tenant: acme # Injected heading  \\| a \\| b \\|\n");
    }

    @Test
    void hostileText_cannotBreakTheMarkdownTables() {
        List<TraceSummary> t = List.of(new TraceSummary("abc", "GET /x | DROP\n## Injected", "api", FROM, 5, 1, false));
        PostmortemReport r = builder.build(input(rows(1), Optional.of(blast()), t, List.of(), ALL_UP));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("GET /x \\| DROP ## Injected");
        assertThat(md.lines().filter(l -> l.startsWith("## ")).toList()).doesNotContain("## Injected");
    }

    /** The cells of a markdown table row: split at every {@code |} not escaped by a backslash, as GFM does. */
    private static int cells(String row) {
        return row.split("(?<!\\\\)\\|", -1).length - 2;
    }

    @Test
    void hostileTraceIds_cannotSplitTheirTableCell_andControlCharactersNeverReachTheDraft() {
        List<TraceSummary> t = List.of(new TraceSummary("abc|def|ghi", "GET /x\u001b[2J\u0000\t\u000b\u0085end", "api\rx", FROM, 5, 1, true));
        PostmortemReport r = builder.build(input(rows(1), Optional.of(blast()), t, LOGS, ALL_UP));
        String md = PostmortemMarkdown.render(r);
        String row = md.lines().filter(l -> l.startsWith("| `abc")).findFirst().orElseThrow();
        assertThat(cells(row)).isEqualTo(cells("| Trace | Root | Service | Duration (ms) | Spans | Error |")).isEqualTo(6);
        assertThat(row).contains("`abc\\|def\\|ghi`").contains("GET /x \\[2J    end").contains("api x");
        assertThat(md.chars().filter(c -> Character.isISOControl(c) && c != '\n')).isEmpty();
    }

    @Test
    void input_refusesAWindowThatEndsBeforeItStartsAndAMissingBlastRadius() {
        assertThatThrownBy(() -> new PostmortemInput("db", "1h", TO, FROM, "", List.of(), List.of(), Map.of(), Optional.empty(), List.of(), List.of(),
                List.of(), WHOLE_WINDOW, new Situation(true, SourceState.available(), SourceState.notConfigured(), SourceState.available())))
                .hasMessageContaining("ends");
        assertThatThrownBy(() -> input(List.of(), Optional.empty(), List.of(), List.of(), ALL_UP))
                .hasMessageContaining("no blast radius was given");
    }

    @Test
    void synopsis_namesTheEarliestOnsetAndTheFirstServiceThatWentWrong() {
        Instant dbOnset = FROM.plusSeconds(300);
        List<HistoryRow> timeline = List.of(
                anomaly("api", "error_rate", FROM.plusSeconds(900), 6, FROM.plusSeconds(420)),
                anomaly("db", "latency_p99", FROM.plusSeconds(900), 40, dbOnset),
                anomaly("db", "latency_p99", FROM.plusSeconds(960), 45, dbOnset));
        PostmortemReport r = builder.build(input(timeline, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(r.synopsis()).contains("2 anomaly episodes across 2 services")
                .contains("The earliest onset is 2025-03-10T09:05:00Z (latency_p99 of db, step): db went wrong first among the services in "
                        + "this report.");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("Start at the onset: what changed on db around 2025-03-10T09:05:00Z"));
        assertThat(r.followUps()).noneSatisfy(f -> assertThat(f).contains("went wrong before"));
    }

    @Test
    void aServiceAskedAsNamespaceAndName_isTheServiceTheHistoryRecordsByName() {
        BlastRadius prodDb = new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("prod/db"), BlastRadiusOptions.defaults());
        assertThat(prodDb.targets()).as("the topology resolves prod/db").isNotEmpty();
        List<HistoryRow> timeline = List.of(anomaly("db", "latency_p99", FROM.plusSeconds(900), 40, FROM.plusSeconds(300)),
                anomaly("api", "error_rate", FROM.plusSeconds(900), 6, FROM.plusSeconds(420)));
        PostmortemInput asked = new PostmortemInput("prod/db", "1h", FROM, TO, "acme", timeline, List.of(), Map.of(), Optional.of(prodDb),
                ContributingSignal.fromHistory(timeline), traces(1), LOGS, WHOLE_WINDOW, ALL_UP);
        assertThat(asked.isTheService("db")).isTrue();
        assertThat(asked.isTheService("api")).isFalse();
        PostmortemReport r = builder.build(asked);
        assertThat(r.synopsis()).contains("db went wrong first among the services in this report.").doesNotContain("has no anomaly");
        assertThat(r.followUps()).noneSatisfy(f -> assertThat(f).contains("went wrong before"));
    }

    @Test
    void whenAnotherServiceWentWrongBeforeTheSuspect_theSynopsisAndAFollowUpSaySo() {
        List<HistoryRow> timeline = List.of(
                anomaly("db", "latency_p99", FROM.plusSeconds(900), 40, FROM.plusSeconds(600)),
                anomaly("cache", "memory", FROM.plusSeconds(900), 9, FROM.plusSeconds(120)));
        PostmortemReport r = builder.build(input(timeline, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(r.synopsis()).contains("cache went wrong first among the services in this report, before db (from 2025-03-10T09:10:00Z).");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("cache went wrong before db: check whether it is the root cause"));

        PostmortemReport suspectQuiet = builder.build(input(List.of(timeline.get(1)), Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(suspectQuiet.synopsis()).contains("cache went wrong first among the services in this report, while db has no anomaly in "
                + "this window.");
    }

    @Test
    void whenTheSuspectHasNoAnomaly_theFollowUpsCompareNoOnsetWithIt_butPointAtTheServicesThatDeviated() {
        List<HistoryRow> cacheOnly = List.of(anomaly("cache", "memory", FROM.plusSeconds(900), 9, FROM.plusSeconds(120)));
        PostmortemReport r = builder.build(input(cacheOnly, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(r.followUps()).noneSatisfy(f -> assertThat(f).contains("went wrong before"));
        assertThat(r.followUps()).contains("db has no anomaly in this window; cache does, from 2025-03-10T09:02:00Z: generate the "
                + "post-mortem for cache instead (generate_postmortem for cache).");

        List<HistoryRow> several = List.of(anomaly("cache", "memory", FROM.plusSeconds(900), 9, FROM.plusSeconds(120)),
                anomaly("api", "error_rate", FROM.plusSeconds(900), 6, FROM.plusSeconds(300)),
                anomaly("api", "latency_p99", FROM.plusSeconds(900), 6, FROM.plusSeconds(60)),
                new HistoryRow("web", "error_rate", FROM.plusSeconds(900), 5, true, Optional.of("spike"), Optional.empty()));
        PostmortemReport r2 = builder.build(input(several, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(r2.followUps()).contains("db has no anomaly in this window; api (from 2025-03-10T09:01:00Z), cache (from "
                + "2025-03-10T09:02:00Z) and web (first recorded at 2025-03-10T09:15:00Z) do: generate the post-mortem for api, the "
                + "earliest, instead (generate_postmortem for api).");
    }

    @Test
    void everySentenceOfTheSynopsis_startsWithACapitalAFigureOrAServiceName() {
        List<TraceSummary> atTheCap = new ArrayList<>();
        while (atTheCap.size() < PostmortemReport.RANKED_TRACES) {
            atTheCap.add(new TraceSummary(String.format("%032x", atTheCap.size() + 1), "GET /orders", "api", FROM, 1, 5, atTheCap.size() < 4));
        }
        Situation partial = new Situation(false, SourceState.of(true, true, List.of(new SourceFailure("tempo", SourceFailure.Kind.TIMEOUT,
                "no answer"))), SourceState.of(true, true, List.of(new SourceFailure("zipkin", SourceFailure.Kind.ERROR, "down"))),
                SourceState.of(true, false, List.of(new SourceFailure("loki", SourceFailure.Kind.ERROR, "down"))));
        List<HistoryRow> timeline = List.of(anomaly("cache", "memory", FROM.plusSeconds(900), 9, FROM.plusSeconds(120)));
        List<HistoryRow> outside = List.of(anomaly("storage", "iops", FROM.plusSeconds(900), 12, FROM.plusSeconds(60)));
        for (PostmortemInput in : List.of(input(timeline, Optional.of(blast()), atTheCap, LOGS, ALL_UP),
                input(List.of(), Optional.of(blast()), atTheCap, LOGS, partial),
                new PostmortemInput("db", "1h", FROM, TO, "", timeline, outside, Map.of("storage", true), Optional.of(blast()),
                        ContributingSignal.fromHistory(timeline), atTheCap, LOGS, WHOLE_WINDOW, partial))) {
            PostmortemReport r = builder.build(in);
            for (String sentence : r.synopsis().split("(?<=[.!?]) ")) {
                // a capital or a figure; a service name keeps its own spelling
                assertThat(!Character.isLowerCase(sentence.charAt(0)) || sentence.startsWith("db") || sentence.startsWith("cache")
                        || sentence.startsWith("storage")).as("a sentence of: " + r.synopsis()).isTrue();
            }
        }
        assertThat(PostmortemBuilder.sentence("at least 1000 related traces")).isEqualTo("At least 1000 related traces");
        assertThat(PostmortemBuilder.sentence("600 related traces")).isEqualTo("600 related traces");
    }

    @Test
    void aServiceOutsideTheScopeThatDeviatedEarlier_isNamed_andOnlyOneTheSuspectDependsOnIsSuggestedAsTheRootCause() {
        List<HistoryRow> scope = List.of(anomaly("db", "latency_p99", FROM.plusSeconds(900), 40, FROM.plusSeconds(600)));
        List<HistoryRow> outside = List.of(
                anomaly("storage", "iops", FROM.plusSeconds(900), 12, FROM.plusSeconds(420)),
                anomaly("billing", "cpu", FROM.plusSeconds(900), 9, FROM.plusSeconds(60)),
                anomaly("web", "error_rate", FROM.plusSeconds(900), 5, FROM.plusSeconds(700)));
        PostmortemReport r = builder.build(new PostmortemInput("db", "1h", FROM, TO, "", scope, outside,
                Map.of("storage", true, "billing", false, "web", false), Optional.of(blast()), ContributingSignal.fromHistory(scope),
                traces(1), LOGS, WHOLE_WINDOW, ALL_UP));
        // billing began earliest but the topology shows it unrelated: storage, which db depends on, is the one named
        assertThat(r.synopsis()).contains("db went wrong first among the services in this report. storage, outside this report's scope, "
                + "deviated earlier (iops from 2025-03-10T09:07:00Z), and db is in its blast radius: a post-mortem for storage may find "
                + "the root cause.");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("storage deviated before anything in this report"));
        assertThat(r.followUps()).noneSatisfy(f -> assertThat(f).startsWith("billing"));
        // every service outside the scope is listed under the timeline, earliest first
        assertThat(r.timeline().outsideScope()).extracting(OutsideScope::service).containsExactly("billing", "storage", "web");
        assertThat(PostmortemMarkdown.render(r)).contains("_Outside this report's scope (db and its blast radius), anomalies were also "
                + "recorded for: billing (cpu from 2025-03-10T09:01:00Z; no path to db); storage (iops from 2025-03-10T09:07:00Z; db is "
                + "in its blast radius); web (error_rate from 2025-03-10T09:11:40Z; no path to db).");
    }

    @Test
    void aServiceOutsideTheScopeWithoutAPathToTheSuspect_isStillNamed_whenItsBlastRadiusHoldsAnAnomalousServiceOfTheScope() {
        // the suspect (catalog) is healthy; web in its scope is anomalous, and payments-db, outside, reaches web but not catalog
        List<HistoryRow> scope = List.of(anomaly("web", "error_rate", FROM.plusSeconds(900), 30, FROM.plusSeconds(600)));
        List<HistoryRow> outside = List.of(anomaly("payments-db", "latency_p99", FROM.plusSeconds(900), 900, FROM.plusSeconds(300)));
        PostmortemReport r = builder.build(new PostmortemInput("catalog", "1h", FROM, TO, "", scope, outside, Map.of("payments-db", false),
                Optional.of(blast()), ContributingSignal.fromHistory(scope), traces(1), LOGS, WHOLE_WINDOW, ALL_UP, Map.of(),
                Map.of("payments-db", List.of("web"))));
        assertThat(r.synopsis()).contains("payments-db, outside this report's scope, deviated earlier (latency_p99 from 2025-03-10T09:05:00Z); "
                + "the topology shows no path from it to catalog, but its blast radius holds web, anomalous in this report: a post-mortem "
                + "for payments-db may tell whether it is the root cause.");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("payments-db deviated before anything in this report"));
        assertThat(r.toJson().getJsonObject("timeline").getJsonArray("outsideScope").getJsonObject(0).getJsonArray("reachesInScope"))
                .hasSize(1);
    }

    @Test
    void aServiceOutsideTheScopeThatDeviatedLater_isListedButNotSaidToBeFirst() {
        List<HistoryRow> scope = List.of(anomaly("db", "latency_p99", FROM.plusSeconds(900), 40, FROM.plusSeconds(600)));
        List<HistoryRow> outside = List.of(anomaly("storage", "iops", FROM.plusSeconds(900), 12, FROM.plusSeconds(700)));
        PostmortemReport r = builder.build(new PostmortemInput("db", "1h", FROM, TO, "", scope, outside, Map.of(), Optional.of(blast()),
                ContributingSignal.fromHistory(scope), traces(1), LOGS, WHOLE_WINDOW, ALL_UP));
        assertThat(r.synopsis()).doesNotContain("outside this report's scope");
        assertThat(r.toJson().getJsonObject("timeline").getJsonArray("outsideScope")).hasSize(1);
    }

    @Test
    void servicesSharingTheEarliestOnset_areAllNamed() {
        Instant onset = FROM.plusSeconds(60);
        List<HistoryRow> timeline = List.of(anomaly("db", "latency_p99", FROM.plusSeconds(600), 40, onset),
                anomaly("api", "error_rate", FROM.plusSeconds(600), 6, onset));
        PostmortemReport r = builder.build(input(timeline, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(r.synopsis()).contains("api and db went wrong first among the services in this report, at the same time.");
    }

    @Test
    void anAnomalyWithoutOnset_isDatedByItsFirstRecordingAndSaysSo() {
        List<HistoryRow> timeline = List.of(
                new HistoryRow("db", "latency_p99", FROM.plusSeconds(600), 9, true, Optional.of("spike"), Optional.empty()),
                new HistoryRow("db", "latency_p99", FROM.plusSeconds(900), 11, true, Optional.of("spike"), Optional.empty()));
        PostmortemReport r = builder.build(input(timeline, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(r.timeline().episodes()).singleElement().satisfies(e -> {
            assertThat(e.onset()).isEqualTo(FROM.plusSeconds(600));
            assertThat(e.onsetKnown()).isFalse();
            assertThat(e.judgments()).isEqualTo(2);
        });
        assertThat(r.synopsis()).contains("The earliest anomaly was first recorded at 2025-03-10T09:10:00Z (latency_p99 of db; its onset "
                + "was not dated, so it began then or earlier)");
        assertThat(PostmortemMarkdown.render(r)).contains("| 2025-03-10T09:10:00Z (first recorded; onset not dated) | db |");
        assertThat(r.toJson().getJsonObject("timeline").getJsonArray("episodes").getJsonObject(0).getBoolean("onsetKnown")).isFalse();
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).startsWith("Start at the first anomaly: what changed on db"));
    }

    @Test
    void onlyNormalScores_makeNoEpisode_andTheTimelineSaysTheyWereAllNormal() {
        List<HistoryRow> timeline = List.of(new HistoryRow("db", "cpu", FROM.plusSeconds(60), 1.5, false, Optional.empty(), Optional.empty()),
                new HistoryRow("db", "memory", FROM.plusSeconds(60), 0.5, false, Optional.empty(), Optional.empty()));
        PostmortemReport r = builder.build(input(timeline, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        assertThat(r.timeline().episodes()).isEmpty();
        assertThat(r.synopsis()).contains("No score crossed the anomaly threshold.");
        assertThat(PostmortemMarkdown.blocks(r).timeline()).contains("No anomaly between").contains("2 scores recorded, all normal");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).contains("run detect_anomalies with sensitivity high"));
    }

    @Test
    void signalsThatReadAlike_areLabelledWithWhatTheyMeasure() {
        PostmortemBuilder labelled = new PostmortemBuilder(s -> switch (s) {
            case "cpu" -> Optional.of("cores used");
            case "cpu_utilization" -> Optional.of("share of CPU limit");
            default -> Optional.empty();
        });
        Instant onset = FROM.plusSeconds(60);
        List<HistoryRow> timeline = List.of(anomaly("db", "cpu", FROM.plusSeconds(600), 8, onset),
                anomaly("db", "cpu_utilization", FROM.plusSeconds(600), 8, onset),
                anomaly("db", "latency_p99", FROM.plusSeconds(600), 30, onset.plusSeconds(30)));
        PostmortemReport r = labelled.build(input(timeline, Optional.of(blast()), traces(1), LOGS, ALL_UP));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("| db | cpu (cores used) | step |").contains("| db | cpu_utilization (share of CPU limit) | step |")
                .contains("| db | latency_p99 | step |");
        assertThat(md).contains("| db | cpu (cores used) | 8.0 |"); // contributing signals too
        JsonObject json = r.toJson();
        assertThat(json.getJsonObject("timeline").getJsonArray("episodes").getJsonObject(1).getString("measure"))
                .isEqualTo("share of CPU limit");
        assertThat(json.getJsonObject("signals").getJsonArray("items").stream().map(JsonValue::asJsonObject)
                .filter(o -> o.getString("signal").equals("cpu")).findFirst().orElseThrow().getString("measure")).isEqualTo("cores used");
    }

    @Test
    void theCallOfferedForAnUnresolvedService_isJsonThatNamesTheTopologysNameExactly() {
        // the offered names are the topology's, a source's text: a quote or a backslash in one must not break the call
        String offered = "pay\"ments\\v2";
        BlastRadius unresolved = new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("Db"), BlastRadiusOptions.defaults());
        PostmortemInput in = new PostmortemInput("Db", "1h", FROM, TO, "", rows(3), List.of(), Map.of(), Optional.of(unresolved),
                List.of(), List.of(), List.of(), WHOLE_WINDOW, ALL_UP, Map.of(), Map.of(), List.of(offered));

        String note = builder.build(in).toJson().getJsonObject("blastRadius").getString("note");

        Matcher call = Pattern.compile("with (\\{.*}) walks").matcher(note);
        assertThat(call.find()).as(note).isTrue();
        JsonObject asked = Json.createReader(new StringReader(call.group(1))).readObject();
        assertThat(asked.getString("service")).isEqualTo(offered);
    }

    private PostmortemReport unresolvedDb(List<String> offered) {
        BlastRadius unresolved = new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("Db"), BlastRadiusOptions.defaults());
        return builder.build(new PostmortemInput("Db", "1h", FROM, TO, "", rows(3), List.of(), Map.of(), Optional.of(unresolved),
                List.of(), List.of(), List.of(), WHOLE_WINDOW, ALL_UP, Map.of(), Map.of(), offered));
    }

    @Test
    void theSynopsis_offersTheTopologysSpelling_ofAServiceItDoesNotKnow_asTheSectionDoes() {
        // the synopsis is read first: "not in the topology" alone would read as an isolated service
        assertThat(unresolvedDb(List.of("db")).synopsis()).contains(" Blast radius: Db is not in the topology (names are matched "
                + "exactly, case included). Did you mean 'db'?");
        assertThat(unresolvedDb(List.of()).synopsis()).contains(" Blast radius: Db is not in the topology.")
                .doesNotContain("Did you mean");
    }

    @Test
    void manySpellingsOfTheService_areOfferedThreeAtATime_everywhereTheReportOffersThem() {
        // a hostile or sloppy source may list every case of a name: the report stays short and says how many it left out
        List<String> offered = List.of("DB-MAIN", "DB-Main", "Db-Main", "db-MAIN", "db-Main", "db-main");
        PostmortemReport r = unresolvedDb(offered);
        JsonObject blast = r.toJson().getJsonObject("blastRadius");

        String more = "'DB-MAIN', 'DB-Main' or 'Db-Main' (and 3 more case variants)";
        assertThat(blast.getString("note")).contains("Did you mean " + more + "?")
                .contains("get_blast_radius with {\"service\": \"DB-MAIN\"}, {\"service\": \"DB-Main\"} or "
                        + "{\"service\": \"Db-Main\"} walks").doesNotContain("db-main");
        assertThat(r.synopsis()).contains("Did you mean " + more + "?").doesNotContain("db-main");
        assertThat(r.followUps()).anySatisfy(f -> assertThat(f).contains("get_blast_radius for DB-MAIN, DB-Main or Db-Main (its spelling "
                + "there, and 3 more case variants) shows").doesNotContain("db-main"));
        assertThat(blast.getJsonArray("didYouMean").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("DB-MAIN", "DB-Main", "Db-Main");
    }
}
