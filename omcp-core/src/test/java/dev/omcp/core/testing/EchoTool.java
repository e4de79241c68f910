package dev.omcp.core.testing;

import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.Optional;

/** A tool that echoes its {@code service} argument back as structured content. */
public final class EchoTool implements Tool {
    private final String name;

    public EchoTool(String name) {
        this.name = name;
    }

    @Override
    public ToolDefinition definition() {
        JsonObject input = Json.createObjectBuilder()
                .add("type", "object")
                .add("properties", Json.createObjectBuilder()
                        .add("service", Json.createObjectBuilder().add("type", "string").add("pattern", "^[A-Za-z0-9_.:/-]{1,128}$"))
                        .add("limit", Json.createObjectBuilder().add("type", "integer").add("minimum", 1).add("maximum", 100)))
                .add("required", Json.createArrayBuilder().add("service"))
                .add("additionalProperties", false)
                .build();
        JsonObject output = Json.createObjectBuilder().add("type", "object").build();
        return new ToolDefinition(name, "Echo " + name, "Echoes the service argument.", input, Optional.of(output),
                ToolAnnotations.readOnlyLocal());
    }

    @Override
    public ToolResult call(ToolCall call) {
        if (call.arguments().getString("service").equals("explode")) {
            throw new IllegalStateException("secret internal detail");
        }
        if (call.arguments().getString("service").equals("recurse")) {
            return recurse(call.arguments().getString("service").length());
        }
        return ToolResult.structured(Json.createObjectBuilder().add("echo", call.arguments().getString("service")).build());
    }

    /** Recursion without end, as a regular expression's over a long hostile text: a StackOverflowError. */
    private static ToolResult recurse(int depth) {
        return depth < 0 ? ToolResult.error("unreachable") : recurse(depth + 1);
    }
}
