package dev.omcp.ports.tools;

import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Driving port: runs one tool as a given principal through the same path as an agent's
 * {@code tools/call} on {@code /mcp}: the dispatcher, the whole interceptor chain (authorization,
 * rate limits, budgets, hooks, Inspect and audit hang there) and the tool's own argument check.
 * The management API uses it for the playground and for the routes that answer with a tool's
 * result ({@code /api/services}, {@code /api/topology}, {@code /api/health/{service}},
 * post-mortems), so none of them can bypass what governs agents.
 *
 * <p>Implemented by the core. Thread-safe.
 */
public interface InvokeTool {

    /**
     * Calls {@code tool} with {@code arguments} exactly as {@code tools/call} would; arguments the
     * tool's schema refuses come back as an error result of the tool, as they would on {@code /mcp}.
     *
     * @param caller the identity the call runs as (its tenant scopes the sources the tool sees)
     * @param tool the tool name
     * @param arguments the {@code arguments} object
     */
    ToolOutcome invoke(Principal caller, String tool, JsonObject arguments);

    /**
     * Calls {@code tool} with arguments given as text (for example URL query parameters), each
     * converted to the type the tool's input schema declares for it ({@code integer},
     * {@code number}, {@code boolean}, {@code string}, or an {@code array} of those, one value per
     * repetition). The converted arguments are checked against the schema first: any violation
     * answers {@link ToolOutcome.InvalidArguments} listing every one, and the tool is not called.
     *
     * @param fixed arguments that are not text (for example a service name taken from the path);
     *     they win over a parameter of the same name
     */
    ToolOutcome invokeWithParameters(Principal caller, String tool, Map<String, List<String>> parameters, JsonObject fixed);
}
