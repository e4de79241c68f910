package dev.omcp.core.mcp.handlers;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.prompts.PromptArgument;
import dev.omcp.ports.prompts.PromptDefinition;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code prompts/list} and {@code prompts/get}. */
public final class PromptMethods {
    /** Characters of a prompt's own refusal an error message keeps: enough for what it allows, not a flood. */
    private static final int MAX_REFUSAL_CHARS = 300;

    private final Map<String, Prompt> prompts = new LinkedHashMap<>();

    public PromptMethods(List<Prompt> prompts) {
        for (Prompt prompt : prompts) {
            this.prompts.put(prompt.definition().name(), prompt);
        }
    }

    public McpResult list(McpCall call) {
        Optional<McpResult> refused = UnpagedLists.refuseCursor(call, "prompts/list");
        if (refused.isPresent()) {
            return refused.get();
        }
        JsonArrayBuilder array = Jsonp.array();
        for (Prompt prompt : prompts.values()) {
            PromptDefinition definition = prompt.definition();
            JsonObjectBuilder entry = Jsonp.object().add("name", definition.name());
            if (call.revision().titles()) {
                entry.add("title", definition.title());
            }
            entry.add("description", definition.description());
            JsonArrayBuilder arguments = Jsonp.array();
            for (PromptArgument argument : definition.arguments()) {
                arguments.add(Jsonp.object()
                        .add("name", argument.name())
                        .add("description", argument.description())
                        .add("required", argument.required()));
            }
            array.add(entry.add("arguments", arguments));
        }
        return McpResult.Success.of(Jsonp.object().add("prompts", array).build());
    }

    public McpResult get(McpCall call) {
        if (!(call.params().get("name") instanceof JsonString nameString)) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "prompts/get needs params.name, the name of a prompt from prompts/list");
        }
        String name = nameString.getString();
        Prompt prompt = prompts.get(name);
        if (prompt == null) {
            return McpResult.Failure.of(
                    JsonRpc.INVALID_PARAMS, "Unknown prompt '" + ToolMethods.abbreviate(name) + "'; call prompts/list for the prompts you can use");
        }
        JsonValue argumentsValue = call.params().getOrDefault("arguments", JsonValue.EMPTY_JSON_OBJECT);
        if (argumentsValue == JsonValue.NULL) {
            // as tools/call does: a client that sends null means "no arguments"
            argumentsValue = JsonValue.EMPTY_JSON_OBJECT;
        }
        if (!(argumentsValue instanceof JsonObject argumentsObject)) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "prompts/get params.arguments must be an object of strings");
        }
        Map<String, String> arguments = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> entry : argumentsObject.entrySet()) {
            if (!(entry.getValue() instanceof JsonString text)) {
                return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "prompt argument '" + BackendText.quoted(entry.getKey(), 64)
                        + "' must be a string");
            }
            arguments.put(entry.getKey(), text.getString());
        }
        List<String> missing = new ArrayList<>();
        for (PromptArgument argument : prompt.definition().arguments()) {
            if (argument.required() && !arguments.containsKey(argument.name())) {
                missing.add(argument.name());
            }
        }
        if (!missing.isEmpty()) {
            List<String> quotedMissing = missing.stream().map(ToolMethods::abbreviate).toList();
            return McpResult.Failure.of(
                    JsonRpc.INVALID_PARAMS, "prompt '" + ToolMethods.abbreviate(name) + "' needs the arguments " + quotedMissing);
        }
        JsonArrayBuilder messages = Jsonp.array();
        try {
            prompt.render(arguments, call.principal()).forEach(messages::add);
        } catch (IllegalArgumentException e) {
            // a prompt refuses an argument it cannot use (a malformed service name...): the caller's mistake, said as such
            // an embedder's prompt may echo the caller's argument into its message as it is: quoted as every refusal
            // quotes caller text (one line, invisible characters as ?), bounded yet long enough to say what is allowed
            String reason = e.getMessage() == null
                    ? "an argument cannot be used"
                    : BackendText.quoted(e.getMessage(), MAX_REFUSAL_CHARS);
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "prompt '" + ToolMethods.abbreviate(name) + "': " + reason);
        }
        return McpResult.Success.of(Jsonp.object()
                .add("description", prompt.definition().description())
                .add("messages", messages)
                .build());
    }

    /** Suggestions for a prompt argument. */
    Optional<List<String>> complete(String promptName, String argument, String prefix, Principal principal) {
        Prompt prompt = prompts.get(promptName);
        return prompt == null ? Optional.empty() : Optional.of(prompt.complete(argument, prefix, principal));
    }
}
