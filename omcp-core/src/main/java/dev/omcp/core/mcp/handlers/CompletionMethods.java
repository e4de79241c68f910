package dev.omcp.core.mcp.handlers;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;

/** {@code completion/complete} for prompt arguments and resource template variables. */
public final class CompletionMethods {
    /** MCP: a completion result carries at most 100 values. */
    private static final int MAX_VALUES = 100;

    private final PromptMethods prompts;
    private final ResourceMethods resources;

    public CompletionMethods(PromptMethods prompts, ResourceMethods resources) {
        this.prompts = prompts;
        this.resources = resources;
    }

    public McpResult complete(McpCall call) {
        if (!(call.params().get("ref") instanceof JsonObject ref)
                || !(call.params().get("argument") instanceof JsonObject argument)
                || !argument.containsKey("name")) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "completion/complete needs params.ref and params.argument {name, value}");
        }
        String name = argument.getString("name", "");
        String prefix = argument.getString("value", "");
        List<String> values;
        switch (ref.getString("type", "")) {
            case "ref/prompt" -> {
                Optional<List<String>> found = prompts.complete(ref.getString("name", ""), name, prefix, call.principal());
                if (found.isEmpty()) {
                    return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "Unknown prompt '" + ref.getString("name", "") + "'");
                }
                values = found.get();
            }
            case "ref/resource" -> values = resources.complete(ref.getString("uri", ""), name, prefix);
            default -> {
                return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "params.ref.type must be ref/prompt or ref/resource");
            }
        }
        JsonArrayBuilder array = Jsonp.array();
        values.stream().limit(MAX_VALUES).forEach(array::add);
        return McpResult.Success.of(Jsonp.object()
                .add("completion", Jsonp.object()
                        .add("values", array)
                        .add("total", values.size())
                        .add("hasMore", values.size() > MAX_VALUES))
                .build());
    }
}
