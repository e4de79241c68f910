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
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PostmortemTest {
    private static final Instant FROM = Instant.parse("2025-03-10T09:00:00Z");
    private static final Instant TO = Instant.parse("2025-03-10T10:00:00Z");
    private final PostmortemBuilder builder = new PostmortemBuilder();

    private static final Situation ALL_UP = new Situation(true, SourceState.available(), SourceState.available(), SourceState.available());

    private static List<HistoryRow> rows(int n) {
        List<HistoryRow> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean anomalous = i % 3 == 0;
            rows.add(new HistoryRow(i % 2 == 0 ? "db" : "api", i % 2 == 0 ? "latency_p99" : "error_rate", FROM.plusSeconds(60L * i),
                    i, anomalous, anomalous ? Optional.of("step") : Optional.empty()));
        }
        return rows;
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
        return new PostmortemInput("db", "1h", FROM, TO, "acme", timeline, blast, ContributingSignal.fromHistory(timeline), traces,
                logs, situation);
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
        List<HistoryRow> many = new ArrayList<>(rows(25));
        for (int i = 0; i < 15; i++) {
            many.add(new HistoryRow("svc-" + i, "cpu", FROM.plusSeconds(i), i, false, Optional.empty()));
        }
        List<TopologyEdge> edges = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            edges.add(new TopologyEdge("service/caller-" + i, "service/db", Relation.CALLS));
        }
        BlastRadius big = new BlastRadiusWalker().walk(TopologyGraph.of("mesh", new Topology(List.of(), edges)), List.of("service/db"),
                BlastRadiusOptions.defaults());
        PostmortemReport r = builder.build(new PostmortemInput("db", "1h", FROM, TO, "", many, Optional.of(big),
                ContributingSignal.fromHistory(many), traces(14), List.of(), ALL_UP));
        assertThat(r.timelineRows()).hasSize(20);
        assertThat(r.timelineRows()).extracting(HistoryRow::at).isSorted();
        assertThat(r.timelineRows()).filteredOn(HistoryRow::anomalous).hasSize(9); // every anomaly of the 25 rows is kept
        assertThat(r.timelineTotal()).isEqualTo(40);
        PostmortemReport.BlastIncluded b = (PostmortemReport.BlastIncluded) r.blastRadius();
        assertThat(b.nodes()).hasSize(30);
        assertThat(b.totalNodes()).isEqualTo(41);
        assertThat(r.signals()).hasSize(10);
        assertThat(r.signals()).extracting(ContributingSignal::meanScore).isSortedAccordingTo((x, y) -> Double.compare(y, x));
        PostmortemReport.TracesIncluded t = (PostmortemReport.TracesIncluded) r.traces();
        assertThat(t.traces()).hasSize(10);
        assertThat(t.total()).isEqualTo(14);
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("20 more rows not shown").contains("11 more resources not shown").contains("Top 10 of 17 signals")
                .contains("10 of 14 related traces shown");
        assertThat(md.lines().filter(l -> l.startsWith("| service/caller-")).count()).isEqualTo(29);
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
        Situation down = new Situation(true, SourceState.available(), SourceState.unavailable("kubernetes: timed out after 5s"),
                SourceState.available());
        PostmortemReport r = builder.build(input(rows(3), Optional.empty(), traces(1), List.of(), down));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("## Blast radius at peak\n\n_Blast radius omitted: the topology provider is down (kubernetes: timed out after 5s)._");
        assertThat(r.toJson().getJsonObject("blastRadius").getBoolean("included")).isFalse();
        assertThat(r.synopsis()).contains("Blast radius unknown");
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
        assertThat(json.getJsonObject("timeline").getJsonArray("rows")).hasSize(20);
        assertThat(json.getJsonObject("timeline").getInt("omittedRows")).isEqualTo(5);
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
        assertThat(out).contains(r.synopsis()).contains("| Time (UTC) |").contains("| Resource |").contains("| Service | Signal | Mean score")
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
    void hostileText_cannotBreakTheMarkdownTables() {
        List<TraceSummary> t = List.of(new TraceSummary("abc", "GET /x | DROP\n## Injected", "api", FROM, 5, 1, false));
        PostmortemReport r = builder.build(input(rows(1), Optional.of(blast()), t, List.of(), ALL_UP));
        String md = PostmortemMarkdown.render(r);
        assertThat(md).contains("GET /x \\| DROP ## Injected");
        assertThat(md.lines().filter(l -> l.startsWith("## ")).toList()).doesNotContain("## Injected");
    }

    @Test
    void input_refusesAWindowThatEndsBeforeItStartsAndAMissingBlastRadius() {
        assertThatThrownBy(() -> new PostmortemInput("db", "1h", TO, FROM, "", List.of(), Optional.empty(), List.of(), List.of(),
                List.of(), new Situation(true, SourceState.available(), SourceState.notConfigured(), SourceState.available())))
                .hasMessageContaining("ends");
        assertThatThrownBy(() -> input(List.of(), Optional.empty(), List.of(), List.of(), ALL_UP))
                .hasMessageContaining("no blast radius was given");
    }
}
