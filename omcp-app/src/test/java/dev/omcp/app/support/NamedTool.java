package dev.omcp.app.support;

import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import jakarta.json.Json;
import java.util.Optional;

/** A do-nothing tool with a given name, for registry tests. */
public record NamedTool(String name) implements Tool {
    @Override
    public ToolDefinition definition() {
        return new ToolDefinition(name, name, "test tool", Json.createObjectBuilder().add("type", "object").build(),
                Optional.empty(), ToolAnnotations.readOnlyLocal());
    }

    @Override
    public ToolResult call(ToolCall call) {
        return ToolResult.text("ok", false);
    }
}
