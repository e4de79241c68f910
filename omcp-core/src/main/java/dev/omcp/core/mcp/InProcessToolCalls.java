package dev.omcp.core.mcp;

import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.core.schema.TextParameters;
import dev.omcp.core.tools.ToolRegistry;
import dev.omcp.core.tools.ToolVisibility;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.tools.InvokeTool;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link InvokeTool} for the management API: every call is a real {@code tools/call} message handed
 * to the same {@link McpEndpoint} the transports use, marked {@link McpTransport#IN_PROCESS}, so it
 * passes the parser, the interceptor chain (hooks, and whatever later governs agents: rate limits,
 * budgets, Inspect, audit) and the tool's own argument check exactly like an agent's call. Only
 * the MCP session is absent: a management caller has none, and an in-process call needs none.
 */
public final class InProcessToolCalls implements InvokeTool {
    private final McpEndpoint endpoint;
    private final ToolRegistry registry;
    private final ToolVisibility visibility;
    private final JsonSchemaValidator validator = new JsonSchemaValidator();
    private final AtomicLong ids = new AtomicLong();

    public InProcessToolCalls(McpEndpoint endpoint, ToolRegistry registry, ToolVisibility visibility) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.visibility = Objects.requireNonNull(visibility, "visibility");
    }

    @Override
    public ToolOutcome invoke(Principal caller, String tool, JsonObject arguments) {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(arguments, "arguments");
        if (find(caller, tool).isEmpty()) {
            return new ToolOutcome.UnknownTool(tool);
        }
        return dispatch(caller, tool, arguments);
    }

    @Override
    public ToolOutcome invokeWithParameters(Principal caller, String tool, Map<String, List<String>> parameters, JsonObject fixed) {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(tool, "tool");
        Optional<Tool> found = find(caller, tool);
        if (found.isEmpty()) {
            return new ToolOutcome.UnknownTool(tool);
        }
        JsonObject schema = found.get().definition().inputSchema();
        TextParameters.Converted converted = TextParameters.convert(schema, parameters);
        JsonObjectBuilder arguments = Jsonp.object();
        converted.arguments().forEach(arguments::add);
        fixed.forEach(arguments::add);
        JsonObject merged = arguments.build();
        List<String> violations = new ArrayList<>(converted.errors());
        if (violations.isEmpty()) {
            violations.addAll(validator.validate(schema, merged, "arguments"));
        }
        if (!violations.isEmpty()) {
            return new ToolOutcome.InvalidArguments(tool, violations);
        }
        return dispatch(caller, tool, merged);
    }

    private Optional<Tool> find(Principal caller, String tool) {
        return registry.find(tool).filter(t -> visibility.isVisible(caller, tool));
    }

    private ToolOutcome dispatch(Principal caller, String tool, JsonObject arguments) {
        String id = "omcp-api-" + ids.incrementAndGet();
        JsonObject message = Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", id)
                .add("method", "tools/call")
                .add("params", Jsonp.object().add("name", tool).add("arguments", arguments))
                .build();
        McpInbound inbound = new McpInbound(caller, Optional.empty(), Optional.empty(), message.toString(), McpTransport.IN_PROCESS);
        McpReply reply = endpoint.handle(inbound, McpOutbound.discarding());
        return switch (reply) {
            case McpReply.Response response -> fromResponse(tool, response.json());
            case McpReply.Refused refused -> new ToolOutcome.Refused(tool, refused.refusal(), refused.body());
            case McpReply.Accepted accepted -> new ToolOutcome.Failed(tool, JsonRpc.INTERNAL_ERROR,
                    "the gateway accepted the call without answering it");
        };
    }

    private static ToolOutcome fromResponse(String tool, String json) {
        JsonObject message;
        try (JsonReader reader = Jsonp.reader(json)) {
            message = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            return new ToolOutcome.Failed(tool, JsonRpc.INTERNAL_ERROR, "the gateway's answer could not be read");
        }
        if (message.get("error") instanceof JsonObject error) {
            int code = error.containsKey("code") && error.get("code").getValueType() == JsonValue.ValueType.NUMBER
                    ? error.getJsonNumber("code").intValue() : JsonRpc.INTERNAL_ERROR;
            return new ToolOutcome.Failed(tool, code, error.getString("message", "the call failed"));
        }
        if (!(message.get("result") instanceof JsonObject result)) {
            return new ToolOutcome.Failed(tool, JsonRpc.INTERNAL_ERROR, "the gateway answered without a result");
        }
        List<JsonObject> content = new ArrayList<>();
        if (result.get("content") instanceof jakarta.json.JsonArray blocks) {
            for (JsonValue block : blocks) {
                if (block instanceof JsonObject object) {
                    content.add(object);
                }
            }
        }
        Optional<JsonObject> structured = result.get("structuredContent") instanceof JsonObject s ? Optional.of(s) : Optional.empty();
        boolean isError = result.getBoolean("isError", false);
        return new ToolOutcome.Completed(tool, new ToolResult(content, structured, isError));
    }
}
