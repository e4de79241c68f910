package dev.omcp.adapters.http.tools;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.InvokeTool;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/services} ({@code list_services}), {@code GET /api/topology}
 * ({@code get_topology}) and {@code POST /api/playground/invoke}. Every tool runs as the caller
 * through {@link InvokeTool}, the same dispatcher and interceptor chain as {@code /mcp}, so hooks
 * and every later governance layer apply to the management plane too.
 *
 * <p>The two listing routes pass their query parameters to the tool as arguments, typed by the
 * tool's input schema ({@code ?limit=5} is the number 5); parameters the tool does not take are
 * refused with 400 listing every violation. The playground answers whatever the tool answered,
 * error results included, as {@code {tool, isError, structuredContent, content}}.
 */
public final class ToolRoutes implements HttpModule {
    static final String LIST_SERVICES = "list_services";
    static final String GET_TOPOLOGY = "get_topology";
    /** MCP tool names: 1-128 of {@code A-Z a-z 0-9 _ - .}. */
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
    /** The body of {@code POST /api/playground/invoke}, as {@link #playground} reads it. */
    private static final Map<String, Object> INVOKE_BODY = BodySchema.object("the tool to run and its arguments")
            .requiredProperty("tool", BodySchema.string("a tool name from tools/list", TOOL_NAME))
            .property("arguments", BodySchema.freeObject("the tool's arguments by name, judged by its inputSchema in tools/list; "
                    + "left out: none"))
            .build();
    private static final Logger LOG = LoggerFactory.getLogger(ToolRoutes.class);

    private final InvokeTool tools;

    public ToolRoutes(InvokeTool tools) {
        this.tools = Objects.requireNonNull(tools, "tools");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/services").permission("services", "read").tag("observability")
                .summary("The services the caller's sources know, from list_services; query parameters are its arguments "
                        + "(filter, source, limit); needs services:read")
                .response(200, "list_services' structured result: services, total, truncated, sources, partial")
                .response(400, "a query parameter list_services does not take, or of the wrong type (OMCP_INVALID_PARAMETERS)")
                .response(401, "login modes: no valid session")
                .response(403, "no services:read, or the call was refused by the tool chain")
                .response(429, "the call was refused by a rate limit of the tool chain")
                .response(502, "the tool answered an error (OMCP_TOOL_ERROR)")
                .handle(ctx -> fromParameters(ctx, LIST_SERVICES));
        routes.route(HandlerType.GET, "/api/topology").permission("topology", "read").tag("observability")
                .summary("The service topology merged across topology sources, from get_topology; query parameters are its "
                        + "arguments; needs topology:read")
                .response(200, "get_topology's structured result")
                .response(400, "a query parameter get_topology does not take, or of the wrong type (OMCP_INVALID_PARAMETERS)")
                .response(401, "login modes: no valid session")
                .response(403, "no topology:read, or the call was refused by the tool chain")
                .response(502, "the tool answered an error (OMCP_TOOL_ERROR)")
                .response(503, "this gateway has no get_topology tool (OMCP_TOOL_UNAVAILABLE)")
                .handle(ctx -> fromParameters(ctx, GET_TOPOLOGY));
        routes.route(HandlerType.POST, "/api/playground/invoke").permission("playground", "invoke").tag("playground").queryParameters()
                .jsonBody(INVOKE_BODY)
                .summary("Runs a tool as the caller through the same interceptor chain as /mcp; body {tool, arguments?}; "
                        + "needs playground:invoke")
                .response(200, "the tool's answer, error results included: {tool, isError, structuredContent, content}")
                .response(400, "invalid body (OMCP_INVALID_BODY)")
                .response(401, "login modes: no valid session")
                .response(403, "no playground:invoke, CSRF token missing, or refused by the tool chain")
                .response(404, "no tool of that name the caller may use (OMCP_UNKNOWN_TOOL)")
                .response(429, "refused by a rate limit of the tool chain")
                .response(502, "the dispatcher answered an error (OMCP_TOOL_CALL_FAILED)")
                .handle(this::playground);
    }

    private void fromParameters(Context ctx, String tool) {
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        ToolAnswers.answer(ctx, tools.invokeWithParameters(caller, tool, QueryString.parameters(ctx), JsonValue.EMPTY_JSON_OBJECT));
    }

    private void playground(Context ctx) throws IOException {
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        Optional<JsonObject> body = JsonpExchange.object(ctx);
        if (body.isEmpty()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        JsonpExchange.unknownFields(body.get(), Set.of("tool", "arguments")).ifPresent(problems::add);
        JsonValue toolValue = body.get().get("tool");
        if (toolValue instanceof JsonString toolName && TOOL_NAME.matcher(toolName.getString()).matches()) {
            ApiCaller.auditTarget(ctx, toolName.getString());
        } else {
            problems.add("tool: required, a tool name (1-128 of A-Z a-z 0-9 _ - .) from tools/list");
        }
        JsonValue arguments = body.get().getOrDefault("arguments", JsonValue.EMPTY_JSON_OBJECT);
        if (!(arguments instanceof JsonObject)) {
            problems.add("arguments: must be an object (the tool's arguments by name)");
        }
        if (!problems.isEmpty()) {
            JsonpExchange.invalid(ctx, problems);
            return;
        }
        String tool = ((JsonString) toolValue).getString();
        JsonObject argumentsObject = arguments.asJsonObject();
        ToolOutcome outcome = tools.invoke(caller, tool, argumentsObject);
        LOG.info("event=playground-invoke actor=\"{}\" tool={} outcome={}", IdentityText.of(caller.id()), tool, describe(outcome));
        if (outcome instanceof ToolOutcome.UnknownTool) {
            JsonpExchange.error(ctx, 404, "OMCP_UNKNOWN_TOOL", "no tool named " + tool + " that you may use; list the tools "
                    + "with tools/list on /mcp", Jsonp.object().add("tool", tool).build());
            return;
        }
        if (ToolAnswers.refusal(ctx, outcome)) {
            return;
        }
        ToolOutcome.Completed completed = (ToolOutcome.Completed) outcome;
        JsonpExchange.write(ctx, 200, Jsonp.object()
                .add("tool", tool)
                .add("isError", completed.result().isError())
                .add("structuredContent", ToolAnswers.structuredOrNull(completed.result()))
                .add("content", ToolAnswers.content(completed.result()))
                .build());
    }

    private static String describe(ToolOutcome outcome) {
        return switch (outcome) {
            case ToolOutcome.Completed c -> c.result().isError() ? "tool-error" : "ok";
            case ToolOutcome.UnknownTool u -> "unknown-tool";
            case ToolOutcome.InvalidArguments i -> "invalid-arguments";
            case ToolOutcome.Refused r -> "refused-" + r.refusal().name().toLowerCase(java.util.Locale.ROOT);
            case ToolOutcome.Failed f -> "failed";
        };
    }
}
