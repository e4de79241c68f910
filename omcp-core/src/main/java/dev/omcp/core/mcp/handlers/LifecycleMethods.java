package dev.omcp.core.mcp.handlers;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.session.McpSessions;
import dev.omcp.ports.tools.LogLevel;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Optional;

/** {@code initialize}, {@code ping}, {@code logging/setLevel} and the lifecycle notifications. */
public final class LifecycleMethods {
    private final String serverName;
    private final String serverTitle;
    private final String serverVersion;
    private final String instructions;
    private final McpSessions sessions;

    public LifecycleMethods(
            String serverName, String serverTitle, String serverVersion, String instructions, McpSessions sessions) {
        this.serverName = serverName;
        this.serverTitle = serverTitle;
        this.serverVersion = serverVersion;
        this.instructions = instructions;
        this.sessions = sessions;
    }

    /**
     * The capabilities announced in every {@code initialize} result. {@code listChanged} promises
     * notifications: the tool list sends them (a plugin installed or removed changes it), while the
     * resources and prompts are fixed when the gateway is built and never change, so they promise
     * none. Subscribing to a resource is accepted; a fixed resource never sends an update.
     */
    public static JsonObject serverCapabilities() {
        return Jsonp.object()
                .add("tools", Jsonp.object().add("listChanged", true))
                .add("resources", Jsonp.object().add("subscribe", true).add("listChanged", false))
                .add("prompts", Jsonp.object().add("listChanged", false))
                .add("logging", JsonObject.EMPTY_JSON_OBJECT)
                .add("completions", JsonObject.EMPTY_JSON_OBJECT)
                .build();
    }

    /**
     * Answers {@code initialize}. The call's revision is already the negotiated one: the client's
     * when supported, else the latest (MCP lifecycle, "Version Negotiation").
     */
    public McpResult initialize(McpCall call) {
        if (!call.params().containsKey("protocolVersion")) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "initialize needs params.protocolVersion, for example \"2025-11-25\"");
        }
        if (!(call.params().get("protocolVersion") instanceof JsonString)) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "initialize params.protocolVersion must be a string naming a protocol "
                    + "revision, for example \"2025-11-25\"");
        }
        for (String member : new String[] {"capabilities", "clientInfo"}) {
            JsonValue value = call.params().get(member);
            if (value != null && !(value instanceof JsonObject)) {
                return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "initialize params." + member + " must be an object");
            }
        }
        JsonObjectBuilder serverInfo = Jsonp.object().add("name", serverName).add("version", serverVersion);
        if (call.revision().titles()) {
            serverInfo.add("title", serverTitle);
        }
        JsonObjectBuilder result = Jsonp.object()
                .add("protocolVersion", call.revision().wireName())
                .add("capabilities", serverCapabilities())
                .add("serverInfo", serverInfo);
        if (!instructions.isBlank()) {
            result.add("instructions", instructions);
        }
        return McpResult.Success.of(result.build());
    }

    /** Answers {@code ping} with an empty result. */
    public McpResult ping(McpCall call) {
        return PING_RESULT;
    }

    private static final McpResult PING_RESULT = new McpResult.Success(JsonObject.EMPTY_JSON_OBJECT, "{}");

    /** Stores the minimum level of log notifications the client wants. */
    public McpResult setLogLevel(McpCall call) {
        Optional<LogLevel> level = LogLevel.fromWireName(call.params().getString("level", ""));
        if (level.isEmpty()) {
            return McpResult.Failure.of(
                    JsonRpc.INVALID_PARAMS,
                    "logging/setLevel needs params.level, one of debug, info, notice, warning, error, critical, alert, emergency");
        }
        call.session().ifPresent(session -> sessions.setLogLevel(session, level.get()));
        return PING_RESULT;
    }

    /** Notifications that need no action beyond acceptance. */
    public McpResult acknowledge(McpCall call) {
        return new McpResult.Done();
    }
}
