package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.FakeMetricsBackend.noisy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.Principal;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A key's source allow-list ({@code OMCP_KEY_SOURCES}) as the tools apply it: through the registry, so every tool
 * honours it, and a source outside it is to the key a source that does not exist.
 */
class SourceAllowListTest {
    private static final String ARGS = "{\"service\":\"api\",\"metric\":\"cpu\"}";
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));
    private final FakeMetricsBackend allowed = new FakeMetricsBackend("prom-a").serve("api", "cpu", noisy(1, 0));
    private final FakeMetricsBackend other = new FakeMetricsBackend("prom-b").serve("api", "cpu", noisy(1, 0));
    private final Toolkit toolkit = Toolkit.builder(new InMemorySources().add(allowed).add(other).add(new FakeLogsBackend("loki"))
            .registry(), clock).build();
    private final Principal key = Principal.apiKey("ci", "", AllowLists.none().withSources(List.of("prom-a", "loki")));

    private static List<String> names(JsonObject listed) {
        return listed.getJsonArray("sources").stream().map(JsonValue::asJsonObject).map(s -> s.getString("name")).toList();
    }

    @Test
    void listSources_showsOnlyTheSourcesOfTheList() {
        ListSourcesTool tool = new ListSourcesTool(toolkit);

        assertThat(names(ToolHarness.ok(tool, "{}", key))).containsExactly("loki", "prom-a");
        assertThat(names(ToolHarness.ok(tool, "{}", Principal.apiKey("ops", "")))).as("a key without a list")
                .containsExactly("loki", "prom-a", "prom-b");
    }

    @Test
    void aToolWithoutASourceArgument_asksOnlyTheSourcesOfTheList() {
        JsonObject result = ToolHarness.ok(new QueryMetricsTool(toolkit), ARGS, key);

        assertThat(result.toString()).contains("prom-a").doesNotContain("prom-b");
        assertThat(allowed.queries).isNotEmpty();
        assertThat(other.queries).as("never asked").isEmpty();
    }

    @Test
    void aSourceArgumentNamingASourceOutsideTheList_answersAsANameNoSourceHas() {
        QueryMetricsTool tool = new QueryMetricsTool(toolkit);

        String outside = ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"source\":\"prom-b\"}", key);
        String unknown = ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"source\":\"nope-b\"}", key);

        assertThat(outside).isEqualTo("query_metrics: source 'prom-b' does not exist; the sources that answer metric queries: prom-a "
                + "(list_sources names every source)");
        assertThat(outside.replace("prom-b", "nope-b")).as("the same answer as for a name no source has").isEqualTo(unknown);
        assertThat(other.queries).isEmpty();
    }

    @Test
    void whenNoneOfTheListedSourcesIsConfigured_listSourcesSaysSo_withoutNamingTheOthers() {
        Principal lost = Principal.apiKey("ci", "", AllowLists.none().withSources(List.of("prom-eu")));

        JsonObject result = ToolHarness.ok(new ListSourcesTool(toolkit), "{}", lost);

        assertThat(result.getJsonArray("sources")).isEmpty();
        assertThat(result.getString("note")).contains("None of the sources this credential may use").doesNotContain("prom-a")
                .doesNotContain("No sources are configured");
    }
}
