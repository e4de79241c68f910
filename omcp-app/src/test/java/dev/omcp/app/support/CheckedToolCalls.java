package dev.omcp.app.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.testkit.schema.UndeclaredMembers;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Tool calls through an {@link McpHttpClient} whose answers are held to the output schema
 * {@code tools/list} published: the {@code structuredContent} must validate against it, and carry
 * no member it leaves undeclared ({@link UndeclaredMembers}), so what an agent reads in the schema
 * is what the answers hold. The schemas are read once per instance (one per gateway).
 */
public final class CheckedToolCalls {
    private static final JsonSchemaValidator VALIDATOR = new JsonSchemaValidator();
    private final McpHttpClient client;
    private Map<String, JsonObject> outputSchemas;

    public CheckedToolCalls(McpHttpClient client) {
        this.client = client;
    }

    /** The {@code structuredContent} of a successful call, checked against the tool's output schema. */
    public JsonObject tool(String name, String arguments) {
        return toolResult(name, arguments).getJsonObject("structuredContent");
    }

    /** The whole {@code CallToolResult} of a successful call, its {@code structuredContent} checked. */
    public JsonObject toolResult(String name, String arguments) {
        JsonObject result = client.toolResult(name, arguments);
        check(name, result.getJsonObject("structuredContent"));
        return result;
    }

    /** Checks one answer of tool {@code name} obtained some other way (a raw request, for example). */
    public void check(String name, JsonObject structured) {
        JsonObject schema = outputSchema(name);
        assertThat(structured).as(name + " structuredContent").isNotNull();
        assertThat(VALIDATOR.validate(schema, structured, "structuredContent")).as("output schema of " + name).isEmpty();
        List<String> undeclared = UndeclaredMembers.in(structured, schema);
        assertThat(undeclared).as("members of the " + name + " answer its output schema does not declare").isEmpty();
    }

    private synchronized JsonObject outputSchema(String name) {
        if (outputSchemas == null) {
            outputSchemas = client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                    .map(JsonValue::asJsonObject).filter(t -> t.containsKey("outputSchema"))
                    .collect(Collectors.toMap(t -> t.getString("name"), t -> t.getJsonObject("outputSchema")));
        }
        JsonObject schema = outputSchemas.get(name);
        assertThat(schema).as("tools/list publishes an output schema for " + name).isNotNull();
        return schema;
    }
}
