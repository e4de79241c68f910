package dev.omcp.ports.tools;

import dev.omcp.ports.mcp.Refusal;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Objects;

/** What became of one tool invocation through {@link InvokeTool}. */
public sealed interface ToolOutcome {

    /**
     * The call went through the chain and produced a {@code CallToolResult}: the tool's answer, an
     * error result of the tool (a backend failure, arguments its schema refused), or the error result
     * a hook answered instead of the tool (spec 6.1 rule 2).
     */
    record Completed(String tool, ToolResult result) implements ToolOutcome {
        public Completed {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(result, "result");
        }
    }

    /** No tool of that name is registered, or the caller may not see it. */
    record UnknownTool(String tool) implements ToolOutcome {
        public UnknownTool {
            Objects.requireNonNull(tool, "tool");
        }
    }

    /** The arguments do not fit the tool's input schema; the tool was not called. */
    record InvalidArguments(String tool, List<String> violations) implements ToolOutcome {
        public InvalidArguments {
            Objects.requireNonNull(tool, "tool");
            violations = List.copyOf(violations);
            if (violations.isEmpty()) {
                throw new IllegalArgumentException("invalid arguments need at least one violation");
            }
        }
    }

    /**
     * An interceptor of the chain refused the call before it ran (a policy, a rate limit).
     *
     * @param body the refusal body the transport would have answered (for example spec 7.2's rate
     *     limit body)
     */
    record Refused(String tool, Refusal refusal, JsonObject body) implements ToolOutcome {
        public Refused {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(refusal, "refusal");
            Objects.requireNonNull(body, "body");
        }
    }

    /** The dispatcher answered a JSON-RPC error instead of a result. */
    record Failed(String tool, int code, String message) implements ToolOutcome {
        public Failed {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(message, "message");
        }
    }
}
