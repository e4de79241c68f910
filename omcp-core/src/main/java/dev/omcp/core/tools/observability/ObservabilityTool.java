package dev.omcp.core.tools.observability;

import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolResult;

/**
 * Base of the builtin observability tools: turns an argument the schema admitted but the tool cannot
 * use into an error result the model can correct, so {@link #run} stays about the tool's work.
 */
public abstract class ObservabilityTool implements Tool {

    @Override
    public final ToolResult call(ToolCall call) {
        try {
            return run(call, new Arguments(call.arguments()));
        } catch (InvalidArgumentException e) {
            return ToolResult.error(definition().name() + ": " + e.getMessage());
        }
    }

    /** Runs the tool with its validated arguments. */
    protected abstract ToolResult run(ToolCall call, Arguments args);
}
