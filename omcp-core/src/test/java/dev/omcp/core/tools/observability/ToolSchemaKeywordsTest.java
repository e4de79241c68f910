package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.ports.tools.Tool;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The gateway checks every call's arguments with its own validator, which ignores keywords it does
 * not know. An assertion keyword it ignored would accept what the tool author meant to refuse, so
 * every keyword of every tool's input and output schema must be one it understands.
 */
class ToolSchemaKeywordsTest {
    /** Members whose values are maps of names to schemas, not schemas themselves. */
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "$defs", "definitions", "dependentSchemas");
    /** Members whose values are data, not schemas. */
    private static final Set<String> DATA = Set.of("enum", "const", "default", "examples", "required", "dependentRequired");

    @Test
    void everyKeywordOfEveryToolSchema_isOneTheValidatorEnforcesOrKnowsToBeAnAnnotation() {
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        Map<String, Set<String>> unknown = new TreeMap<>();
        int tools = 0;
        for (Tool tool : ObservabilityTools.all(toolkit)) {
            tools++;
            String name = tool.definition().name();
            collectUnknown(tool.definition().inputSchema(), name + " input", unknown);
            tool.definition().outputSchema().ifPresent(schema -> collectUnknown(schema, name + " output", unknown));
        }
        assertThat(tools).isEqualTo(12);
        assertThat(unknown).as("keywords the validator would ignore, by keyword").isEmpty();
    }

    @Test
    void noToolSchemaGivesATypeOfTwoKinds_whichTheOfficialSdksStrictValidatorRefuses() {
        // the TypeScript SDK checks output schemas with ajv in strict mode, which refuses a "type" of two kinds (a nullable
        // one, [T, "null"], passes) without allowUnionTypes, and so rejects the whole tool: two kinds are an anyOf
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        Set<String> unionTypes = new TreeSet<>();
        for (Tool tool : ObservabilityTools.all(toolkit)) {
            String name = tool.definition().name();
            collectUnionTypes(tool.definition().inputSchema(), name + " input", unionTypes);
            tool.definition().outputSchema().ifPresent(schema -> collectUnionTypes(schema, name + " output", unionTypes));
        }
        assertThat(unionTypes).as("schemas whose type names two kinds besides null").isEmpty();
    }

    @Test
    void theLabelFilters_ofQueryMetricsAndQueryLogs_useANameRuleTheValidatorEnforces() {
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        for (Tool tool : ObservabilityTools.all(toolkit)) {
            JsonObject labels = tool.definition().inputSchema().getJsonObject("properties").getJsonObject("labels");
            if (labels == null) {
                continue;
            }
            assertThat(labels.containsKey("propertyNames")).as(tool.definition().name()).isTrue();
            // metrics take OpenTelemetry-style names (Prometheus 3 quotes them), logs only the names LogQL writes bare
            String rule = tool.definition().name().equals("query_metrics") ? Schemas.METRIC_LABEL_PATTERN : Schemas.LABEL_PATTERN;
            assertThat(labels.getJsonObject("propertyNames").getString("pattern")).as(tool.definition().name()).isEqualTo(rule);
            assertThat(new JsonSchemaValidator().validate(labels, jakarta.json.Json.createObjectBuilder().add("pod name", "x").build(),
                    "arguments.labels")).as(tool.definition().name())
                    .containsExactly("arguments.labels.pod name (the name): must match " + rule);
        }
    }

    @Test
    void everyDurationAToolsDescriptionGivesAsAnExample_isOneTheToolAccepts() {
        // a model copies examples: get_service_health once offered 30s and 7d for a window of 2m to 1d
        Toolkit toolkit = Toolkit.builder(new InMemorySources().registry(), Clock.systemUTC()).build();
        java.util.regex.Pattern examples = java.util.regex.Pattern.compile("for example ([0-9smhd, ]+)\\.$");
        int checked = 0;
        for (Tool tool : ObservabilityTools.all(toolkit)) {
            JsonObject properties = tool.definition().inputSchema().getJsonObject("properties");
            for (Map.Entry<String, JsonValue> property : properties.entrySet()) {
                JsonObject schema = property.getValue().asJsonObject();
                if (!Schemas.DURATION_PATTERN.equals(schema.getString("pattern", "")) || property.getKey().equals("step")) {
                    continue;
                }
                java.util.regex.Matcher m = examples.matcher(schema.getString("description"));
                assertThat(m.find()).as(tool.definition().name() + "." + property.getKey()).isTrue();
                for (String example : m.group(1).split(", ")) {
                    String required = tool.definition().name().equals("query_metrics") ? "\"service\":\"api\",\"metric\":\"cpu\","
                            : tool.definition().inputSchema().getJsonArray("required") == null ? "" : "\"service\":\"api\",";
                    var answer = ToolInvocation.call(tool, "{" + required + "\"" + property.getKey() + "\":\"" + example + "\"}");
                    assertThat(answer.isError()).as(tool.definition().name() + " " + property.getKey() + "=" + example + ": "
                            + answer.firstText()).isFalse();
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(7 * 3);
    }

    private static void collectUnionTypes(JsonValue schema, String where, Set<String> found) {
        if (schema instanceof JsonArray list) {
            list.forEach(sub -> collectUnionTypes(sub, where, found));
        } else if (schema instanceof JsonObject object) {
            object.forEach((keyword, value) -> {
                if (keyword.equals("type") && value instanceof JsonArray types
                        && types.stream().filter(type -> !type.equals(jakarta.json.Json.createValue("null"))).count() > 1) {
                    found.add(where);
                } else if (!DATA.contains(keyword)) {
                    collectUnionTypes(value, where, found);
                }
            });
        }
    }

    private static void collectUnknown(JsonValue schema, String where, Map<String, Set<String>> unknown) {
        if (!(schema instanceof JsonObject object)) {
            return;
        }
        for (Map.Entry<String, JsonValue> member : object.entrySet()) {
            String keyword = member.getKey();
            if (!JsonSchemaValidator.KNOWN_KEYWORDS.contains(keyword)) {
                unknown.computeIfAbsent(keyword, k -> new TreeSet<>()).add(where);
            }
            if (DATA.contains(keyword)) {
                continue;
            }
            if (SCHEMA_MAPS.contains(keyword) && member.getValue() instanceof JsonObject named) {
                named.values().forEach(sub -> collectUnknown(sub, where, unknown));
            } else if (member.getValue() instanceof JsonArray list) {
                list.forEach(sub -> collectUnknown(sub, where, unknown));
            } else {
                collectUnknown(member.getValue(), where, unknown);
            }
        }
    }
}
