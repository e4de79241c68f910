package dev.omcp.core.mcp.handlers;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
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
        // MCP CompleteRequest: these are strings; read as "" a number would be answered as if nothing matched
        if (!(argument.get("name") instanceof JsonString name)) {
            return notAString("params.argument.name", "the name of the argument to complete");
        }
        // a value left out is taken as nothing typed yet
        JsonValue value = argument.getOrDefault("value", Jsonp.value(""));
        if (!(value instanceof JsonString prefix)) {
            return notAString("params.argument.value", "the text typed so far");
        }
        List<String> values;
        switch (ref.getString("type", "")) {
            case "ref/prompt" -> {
                if (!(ref.get("name") instanceof JsonString promptName)) {
                    return notAString("params.ref.name", "the name of a prompt from prompts/list");
                }
                Optional<List<String>> found = prompts.complete(promptName.getString(), name.getString(), prefix.getString(),
                        call.principal());
                if (found.isEmpty()) {
                    return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "Unknown prompt '"
                            + BackendText.quoted(promptName.getString(), 64) + "'; call prompts/list for the prompts you can use");
                }
                values = found.get();
            }
            case "ref/resource" -> {
                if (!(ref.get("uri") instanceof JsonString uri)) {
                    return notAString("params.ref.uri", "a URI template from resources/templates/list");
                }
                values = resources.complete(uri.getString(), name.getString(), prefix.getString());
            }
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

    private static McpResult notAString(String member, String what) {
        return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "completion/complete " + member + " must be a string: " + what);
    }
}
