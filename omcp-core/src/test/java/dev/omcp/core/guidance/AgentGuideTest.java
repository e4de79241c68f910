package dev.omcp.core.guidance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.core.tools.observability.AnalysisWindow;
import dev.omcp.core.tools.observability.CuratedMetricNames;
import dev.omcp.core.tools.observability.Durations;
import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentGuideTest {
    private final AgentGuide guide = AgentGuide.builtin();

    @Test
    void theGuide_isOneMarkdownResource() {
        assertThat(guide.resources()).singleElement().satisfies(r -> {
            assertThat(r.uri()).isEqualTo("omcp://guides/agent-usage");
            assertThat(r.mimeType()).isEqualTo("text/markdown");
        });
    }

    @Test
    void readingTheGuide_givesItsTextUnderItsUri_andOtherUrisAreLeftToOtherProviders() {
        List<JsonObject> contents = guide.read(AgentGuide.URI, Principal.anonymous()).orElseThrow();

        assertThat(contents).singleElement().satisfies(c -> {
            assertThat(c.getString("uri")).isEqualTo(AgentGuide.URI);
            assertThat(c.getString("mimeType")).isEqualTo("text/markdown");
            assertThat(c.getString("text")).startsWith("# Using OMCP");
        });
        assertThat(guide.read("omcp://guides/other", Principal.anonymous())).isEmpty();
    }

    @Test
    void theInstructions_pointToTheGuideAndBothPrompts_byTheNamesTheyAreServedUnder() {
        assertThat(AgentGuide.INSTRUCTIONS).contains(AgentGuide.URI);
        assertThat(IncidentPrompts.all()).extracting(p -> p.definition().name())
                .allSatisfy(name -> assertThat(AgentGuide.INSTRUCTIONS).contains(name));
    }

    @Test
    void theGuide_namesEveryToolAndTheIncidentRecipeInOrder() {
        String text = guide.text();

        for (String tool : List.of("list_sources", "list_services", "query_metrics", "query_logs", "get_service_health",
                "detect_anomalies", "get_topology", "get_blast_radius", "get_anomaly_history", "enrich_ips", "query_traces",
                "generate_postmortem")) {
            assertThat(text).as(tool).contains("`" + tool + "`");
        }
        String recipe = text.substring(text.indexOf("## The incident recipe"));
        assertThat(recipe.indexOf("list_services")).isLessThan(recipe.indexOf("get_service_health"));
        assertThat(recipe.indexOf("get_service_health")).isLessThan(recipe.indexOf("detect_anomalies"));
        assertThat(recipe.indexOf("detect_anomalies")).isLessThan(recipe.indexOf("get_blast_radius"));
        assertThat(recipe.indexOf("get_blast_radius")).isLessThan(recipe.indexOf("query_traces"));
        assertThat(recipe.indexOf("query_traces")).isLessThan(recipe.indexOf("query_logs"));
        assertThat(recipe.indexOf("query_logs")).isLessThan(recipe.indexOf("generate_postmortem"));
    }

    @Test
    void theGuide_explainsServerSideAggregationAndTheLogAggregates() {
        assertThat(guide.text()).contains("Filtering and aggregating on the server", "count_over_time", "topk", "partial: true",
                "[REDACTED:<category>]");
    }

    @Test
    void theGuide_namesEveryCuratedMetric_andSaysQueryLanguageIsRefused() {
        String metrics = guide.text().substring(guide.text().indexOf("- **Metrics"), guide.text().indexOf("- **Logs"))
                .replace("\n  ", " ");

        for (String name : CuratedMetricNames.names()) {
            assertThat(metrics).as(name).contains("`" + name + "`");
        }
        assertThat(metrics).contains("(share of the containers' limits)", "query language", "label filters go in `labels`");
    }

    @Test
    void theGuide_namesEachToolsWindowArgument_withTheLimitsTheToolsEnforce() {
        String windows = guide.text().substring(guide.text().indexOf("- **Names and windows"), guide.text().indexOf("- **Ownership"))
                .replace("\n  ", " ");

        assertThat(windows).contains("`duration` for `query_metrics`, `query_logs`, `query_traces` and `generate_postmortem` (at most `"
                + Durations.format(Durations.MAX) + "`)");
        assertThat(windows).contains("`window` for `get_service_health` and `detect_anomalies` (`" + Durations.format(AnalysisWindow.MIN_WINDOW)
                + "` to `" + Durations.format(AnalysisWindow.MAX_WINDOW) + "`)");
        assertThat(windows).contains("`get_anomaly_history` (at most `" + Durations.format(HistoryLimits.defaults().retention()) + "`");
    }

    @Test
    void theGuide_saysWhatTopkAndLimitNeed_andHowHealthReportsCpuAndMemory() {
        String text = guide.text().replace("\n  ", " ");

        assertThat(text).contains("`topk` needs `by` (for example `[\"msg\"]`); `limit` is for lines only and is refused with `aggregate`.");
        assertThat(text).contains("`get_service_health` reports CPU and memory as shares of the containers' limits")
                .contains("carries a `metric` field naming the `query_metrics` metric");
        assertThat(text).doesNotContain("Every tool takes a service").contains("Most tools take a service, a time window and filters.");
    }
}
