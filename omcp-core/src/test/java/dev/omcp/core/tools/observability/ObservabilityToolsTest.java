package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.tools.Tool;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the specification and DECISIONS.md say of the tool set as a whole, pinned where the tools
 * are built rather than only end to end: which twelve tools, in which {@code tools/list} order
 * (spec 1.7 counts {@code query_traces} as the ninth tool and {@code generate_postmortem} as the
 * eleventh), that each is read-only with an output schema, and the inputs spec 4.4 names with their
 * defaults (spec 8).
 */
class ObservabilityToolsTest {
    private final List<Tool> tools = ObservabilityTools.all(Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build());
    private final Map<String, Tool> byName = tools.stream().collect(Collectors.toMap(t -> t.definition().name(), Function.identity()));

    private JsonObject input(String tool, String argument) {
        return byName.get(tool).definition().inputSchema().getJsonObject("properties").getJsonObject(argument);
    }

    private static List<String> strings(JsonObject o, String key) {
        return o.getJsonArray(key).getValuesAs(JsonString::getString);
    }

    @Test
    void spec1_7_theTwelveTools_inTheirListOrder_queryTracesNinth_generatePostmortemEleventh() {
        List<String> names = tools.stream().map(t -> t.definition().name()).toList();
        // DECISIONS.md: the spec's named tools plus list_sources, detect_anomalies and get_topology
        assertThat(names).containsExactly("list_sources", "list_services", "query_metrics", "query_logs", "get_service_health",
                "detect_anomalies", "get_topology", "get_blast_radius", "query_traces", "enrich_ips", "generate_postmortem",
                "get_anomaly_history");
        assertThat(names.get(8)).isEqualTo("query_traces");
        assertThat(names.get(10)).isEqualTo("generate_postmortem");
    }

    @Test
    void decisions_everyToolIsReadOnly_andDeclaresAnObjectOutputSchema() {
        for (Tool tool : tools) {
            String name = tool.definition().name();
            assertThat(tool.definition().annotations().readOnlyHint()).as(name).isTrue();
            assertThat(tool.definition().outputSchema()).as(name).hasValueSatisfying(schema ->
                    assertThat(schema.getString("type")).isEqualTo("object"));
        }
    }

    @Test
    void spec4_4_queryTraces_inputsAndDefaults() {
        JsonObject schema = byName.get("query_traces").definition().inputSchema();
        assertThat(schema.getJsonObject("properties").keySet()).containsExactlyInAnyOrder("service", "duration", "filter", "limit",
                "errorsOnly");
        assertThat(strings(schema, "required")).containsExactly("service");
        // spec 8: default window 15m, default limit 50
        assertThat(input("query_traces", "duration").getString("default")).isEqualTo("15m");
        assertThat(input("query_traces", "limit").getInt("default")).isEqualTo(50);
        assertThat(input("query_traces", "errorsOnly").getString("type")).isEqualTo("boolean");
    }

    @Test
    void spec4_4_queryTraces_declaresTheOutputFieldsTheSpecNames() {
        JsonObject properties = byName.get("query_traces").definition().outputSchema().orElseThrow().getJsonObject("properties");
        assertThat(properties.keySet()).contains("service", "duration", "sources", "summary", "traces", "errors");
        assertThat(properties.getJsonObject("summary").getJsonObject("properties").keySet())
                .containsExactlyInAnyOrder("total", "errorCount", "p50DurationMs", "p95DurationMs");
        assertThat(properties.getJsonObject("traces").getJsonObject("items").getJsonObject("properties").keySet())
                .containsExactlyInAnyOrder("traceId", "rootName", "rootService", "durationMs", "spanCount", "hasError");
    }

    @Test
    void spec4_4_generatePostmortem_inputsAndDefaults() {
        JsonObject schema = byName.get("generate_postmortem").definition().inputSchema();
        assertThat(schema.getJsonObject("properties").keySet()).containsExactlyInAnyOrder("service", "duration", "format");
        assertThat(strings(schema, "required")).containsExactly("service");
        // spec 8: post-mortem window default 1h
        assertThat(input("generate_postmortem", "duration").getString("default")).isEqualTo("1h");
        assertThat(strings(input("generate_postmortem", "format"), "enum")).containsExactly("markdown", "json");
        assertThat(input("generate_postmortem", "format").getString("default")).isEqualTo("markdown");
    }

    @Test
    void spec4_4_queryLogs_hasTheAdditiveParameters() {
        assertThat(input("query_logs", "labels").getString("type")).isEqualTo("object");
        assertThat(strings(input("query_logs", "aggregate"), "enum")).containsExactly("count_over_time", "sum", "topk");
        assertThat(input("query_logs", "bypass_redaction").getString("type")).isEqualTo("boolean");
        assertThat(input("query_logs", "bypass_redaction").getBoolean("default")).isFalse();
    }

    @Test
    void spec2_11_and4_4_theEnrichedTools_declareCatalog_andQueryMetricsItsResolution() {
        for (String tool : List.of("query_metrics", "get_service_health")) {
            assertThat(byName.get(tool).definition().outputSchema().orElseThrow().getJsonObject("properties").keySet()).as(tool)
                    .contains("catalog");
        }
        assertThat(byName.get("list_services").definition().outputSchema().orElseThrow().getJsonObject("properties")
                .getJsonObject("services").getJsonObject("items").getJsonObject("properties").keySet()).contains("catalog");
        assertThat(byName.get("query_metrics").definition().outputSchema().orElseThrow().getJsonObject("properties").keySet())
                .contains("resolvedSeries", "resolvedLabel");
    }
}
