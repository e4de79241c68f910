package dev.omcp.core.tools;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolDefinition;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/** Turns tool definitions into the {@code Tool} objects of {@code tools/list}, per revision. */
public final class ToolDescriptors {
    private ToolDescriptors() {}

    /** The {@code tools/list} entry of {@code definition} as {@code revision} expects it. */
    public static JsonObject describe(ToolDefinition definition, ProtocolRevision revision) {
        JsonObjectBuilder tool = Jsonp.object().add("name", definition.name());
        if (revision.titles()) {
            tool.add("title", definition.title());
        }
        tool.add("description", definition.description()).add("inputSchema", definition.inputSchema());
        if (revision.structuredOutput()) {
            definition.outputSchema().ifPresent(schema -> tool.add("outputSchema", schema));
        }
        ToolAnnotations hints = definition.annotations();
        JsonObjectBuilder annotations = Jsonp.object();
        if (!revision.titles()) {
            // Before 2025-06-18 the display title lived in the annotations.
            annotations.add("title", definition.title());
        }
        annotations
                .add("readOnlyHint", hints.readOnlyHint())
                .add("destructiveHint", hints.destructiveHint())
                .add("idempotentHint", hints.idempotentHint())
                .add("openWorldHint", hints.openWorldHint());
        return tool.add("annotations", annotations).build();
    }
}
