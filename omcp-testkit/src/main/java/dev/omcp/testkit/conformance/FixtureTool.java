package dev.omcp.testkit.conformance;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import jakarta.json.JsonObject;
import java.util.Optional;
import java.util.function.Function;

/** A conformance-suite tool: a definition plus a function. */
record FixtureTool(ToolDefinition definition, Function<ToolCall, ToolResult> body) implements Tool {

    static FixtureTool of(String name, String description, JsonObject inputSchema, Function<ToolCall, ToolResult> body) {
        return new FixtureTool(
                new ToolDefinition(name, name, description, inputSchema, Optional.empty(), ToolAnnotations.readOnlyLocal()),
                body);
    }

    static FixtureTool noArguments(String name, String description, Function<ToolCall, ToolResult> body) {
        return of(name, description, Jsonp.object().add("type", "object").build(), body);
    }

    @Override
    public ToolResult call(ToolCall call) {
        return body.apply(call);
    }
}
