package dev.omcp.ports.tools;

import jakarta.json.JsonObject;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What {@code tools/list} says about a tool.
 *
 * @param name unique name, 1-128 of {@code A-Z a-z 0-9 _ - .} (MCP 2025-11-25 naming guidance)
 * @param title short human-readable name
 * @param description what the tool answers, when to use it and what to call next; written for a
 *     model
 * @param inputSchema JSON Schema (draft 2020-12) of the arguments; must be an object schema
 * @param outputSchema JSON Schema of {@code structuredContent}, when the tool returns structured
 *     results
 * @param annotations behaviour hints
 */
public record ToolDefinition(
        String name,
        String title,
        String description,
        JsonObject inputSchema,
        Optional<JsonObject> outputSchema,
        ToolAnnotations annotations) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(inputSchema, "inputSchema");
        Objects.requireNonNull(outputSchema, "outputSchema");
        Objects.requireNonNull(annotations, "annotations");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "tool name '" + name + "' must be 1-128 characters of A-Z, a-z, 0-9, '_', '-' or '.'");
        }
        if (!"object".equals(inputSchema.getString("type", ""))) {
            throw new IllegalArgumentException("tool '" + name + "': inputSchema must have \"type\": \"object\"");
        }
    }
}
