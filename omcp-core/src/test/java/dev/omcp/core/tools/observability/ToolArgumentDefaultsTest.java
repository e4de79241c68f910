package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A {@code default} in an input schema tells a client and a model what leaving the argument out
 * means, and some clients and models send it explicitly. Sending it must then change nothing: no
 * call the tool accepts may be refused because the declared defaults were added to it. Arguments
 * that apply only with others (get_topology depth, detect_anomalies maxServices, query_logs limit)
 * were refused that way, so they declare no default and say it in words.
 */
class ToolArgumentDefaultsTest {
    /** Calls each tool accepts, among them every combination that refuses an argument the others allow. */
    private static final Map<String, List<String>> ACCEPTED_CALLS = Map.ofEntries(
            Map.entry("list_sources", List.of("{}")),
            Map.entry("list_services", List.of("{}")),
            Map.entry("query_metrics", List.of("{\"service\":\"api\",\"metric\":\"cpu\"}")),
            Map.entry("query_logs", List.of("{\"service\":\"api\"}", "{\"service\":\"api\",\"aggregate\":\"count_over_time\"}",
                    "{\"service\":\"api\",\"aggregate\":\"sum\"}", "{\"service\":\"api\",\"aggregate\":\"topk\",\"by\":[\"pod\"]}")),
            Map.entry("get_service_health", List.of("{\"service\":\"api\"}")),
            Map.entry("detect_anomalies", List.of("{}", "{\"service\":\"api\"}")),
            Map.entry("get_topology", List.of("{}", "{\"focus\":\"api\"}")),
            Map.entry("get_blast_radius", List.of("{\"service\":\"api\"}", "{\"resource\":\"node/worker-2\"}")),
            Map.entry("get_anomaly_history", List.of("{}")),
            Map.entry("enrich_ips", List.of("{\"addresses\":[\"203.0.113.7\"]}")),
            Map.entry("query_traces", List.of("{\"service\":\"api\"}")),
            Map.entry("generate_postmortem", List.of("{\"service\":\"api\"}", "{\"service\":\"api\",\"format\":\"json\"}")));

    @Test
    void everyAcceptedCall_withTheDeclaredDefaultsSentExplicitly_isStillAccepted() {
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        List<Tool> tools = ObservabilityTools.all(toolkit);
        assertThat(tools.stream().map(t -> t.definition().name()).collect(Collectors.toSet())).isEqualTo(ACCEPTED_CALLS.keySet());
        for (Tool tool : tools) {
            JsonObject properties = tool.definition().inputSchema().getJsonObject("properties");
            for (String accepted : ACCEPTED_CALLS.get(tool.definition().name())) {
                ToolResult plain = ToolInvocation.call(tool, accepted);
                assertThat(plain.isError()).as("%s %s: %s", tool.definition().name(), accepted, plain.firstText()).isFalse();

                String withDefaults = withDefaults(Jsonp.reader(accepted).readObject(), properties).toString();
                ToolResult answer = ToolInvocation.call(tool, withDefaults);
                assertThat(answer.isError()).as("%s %s: %s", tool.definition().name(), withDefaults, answer.firstText()).isFalse();
            }
        }
    }

    @Test
    void theArgumentsThatApplyOnlyWithOthers_stillSayTheirDefaultInWords() {
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        Map<String, JsonObject> inputs = ObservabilityTools.all(toolkit).stream()
                .collect(Collectors.toMap(t -> t.definition().name(), t -> t.definition().inputSchema().getJsonObject("properties")));
        assertThat(inputs.get("get_topology").getJsonObject("depth").getString("description")).contains("default " + GetTopologyTool.DEFAULT_DEPTH);
        assertThat(inputs.get("detect_anomalies").getJsonObject("maxServices").getString("description"))
                .contains("default " + DetectAnomaliesTool.DEFAULT_MAX_SERVICES);
        assertThat(inputs.get("query_logs").getJsonObject("limit").getString("description")).contains("default " + QueryLogsTool.DEFAULT_LIMIT);
    }

    @Test
    void everyDurationWithoutANarrowerRange_saysTheLongestWindowTheToolsAccept() {
        // the pattern admits 99999d; Durations refuses past 30d, and agents read the schema, not the code
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        for (Tool tool : ObservabilityTools.all(toolkit)) {
            tool.definition().inputSchema().getJsonObject("properties").forEach((name, schema) -> {
                if (!Schemas.DURATION_PATTERN.equals(schema.asJsonObject().getString("pattern", ""))) {
                    return;
                }
                assertThat(schema.asJsonObject().getString("description")).as(tool.definition().name() + "." + name)
                        .containsPattern("(?i)at most [0-9]+[smhd]\\b|\\(2m to 1d\\)");
                ToolResult tooLong = ToolInvocation.call(tool, argumentsWith(tool, name, "31d"));
                assertThat(tooLong.isError()).as(tool.definition().name() + "." + name + "=31d").isTrue();
                assertThat(tooLong.firstText()).contains(name);
            });
        }
    }

    private static String argumentsWith(Tool tool, String name, String duration) {
        String base = ACCEPTED_CALLS.get(tool.definition().name()).getFirst();
        JsonObjectBuilder arguments = Json.createObjectBuilder(Jsonp.reader(base).readObject()).add(name, duration);
        if (tool.definition().name().equals("query_logs") && name.equals("step")) {
            arguments.add("aggregate", "sum");
        }
        return arguments.build().toString();
    }

    private static JsonObject withDefaults(JsonObject arguments, JsonObject properties) {
        JsonObjectBuilder out = Json.createObjectBuilder(arguments);
        for (Map.Entry<String, JsonValue> property : properties.entrySet()) {
            JsonValue declared = property.getValue().asJsonObject().get("default");
            if (declared != null && !arguments.containsKey(property.getKey())) {
                out.add(property.getKey(), declared);
            }
        }
        return out.build();
    }
}
