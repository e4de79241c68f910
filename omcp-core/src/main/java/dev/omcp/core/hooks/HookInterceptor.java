package dev.omcp.core.hooks;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpChain;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.handlers.ToolMethods;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Objects;

/**
 * Runs plugin hooks around {@code tools/call}, {@code resources/read} and {@code prompts/get}
 * (spec 6.1). Pre hooks may rewrite the request or refuse it; post hooks may rewrite the result or
 * refuse it. A refusal answers with the shape spec 6.1 rule 2 prescribes for the method, as a
 * successful JSON-RPC response. Other methods pass untouched.
 */
public final class HookInterceptor implements McpInterceptor {
    private final HookPipeline pipeline;

    public HookInterceptor(HookPipeline pipeline) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    @Override
    public McpResult intercept(McpCall call, McpChain next) {
        return switch (call.method()) {
            case "tools/call" -> toolCall(call, next);
            case "resources/read" -> resourceRead(call, next);
            case "prompts/get" -> promptGet(call, next);
            default -> next.proceed(call);
        };
    }

    private McpResult toolCall(McpCall call, McpChain next) {
        if (!(call.params().get("name") instanceof JsonString name)) {
            return next.proceed(call);
        }
        if (!(arguments(call) instanceof JsonObject arguments)) {
            // Malformed arguments are the handler's to refuse with its own message.
            return next.proceed(call);
        }
        McpCall current = call;
        JsonObject args = arguments;
        if (pipeline.active(HookKind.TOOL_PRE_INVOKE)) {
            HookVerdict pre = pipeline.run(context(call, HookKind.TOOL_PRE_INVOKE, name.getString()),
                    Jsonp.object().add("args", args).build());
            if (pre instanceof HookVerdict.Blocked blocked) {
                return toolRefusal(call, blocked.reason());
            }
            args = ((HookVerdict.Proceed) pre).payload().getJsonObject("args");
            current = call.withParams(Jsonp.provider().createObjectBuilder(call.params()).add("arguments", args).build());
        }
        McpResult result = next.proceed(current);
        if (!(result instanceof McpResult.Success success) || !pipeline.active(HookKind.TOOL_POST_INVOKE)) {
            return result;
        }
        HookVerdict post = pipeline.run(context(call, HookKind.TOOL_POST_INVOKE, name.getString()),
                Jsonp.object().add("args", args).add("result", success.result()).build());
        if (post instanceof HookVerdict.Blocked blocked) {
            return toolRefusal(call, blocked.reason());
        }
        JsonObject replaced = ((HookVerdict.Proceed) post).payload().getJsonObject("result");
        return replaced.equals(success.result()) ? success : McpResult.Success.of(replaced);
    }

    private McpResult resourceRead(McpCall call, McpChain next) {
        if (!(call.params().get("uri") instanceof JsonString uriValue)) {
            return next.proceed(call);
        }
        String uri = uriValue.getString();
        McpCall current = call;
        if (pipeline.active(HookKind.RESOURCE_PRE_FETCH)) {
            HookVerdict pre = pipeline.run(context(call, HookKind.RESOURCE_PRE_FETCH, uri), Jsonp.object().add("uri", uri).build());
            if (pre instanceof HookVerdict.Blocked blocked) {
                return resourceRefusal(uri, blocked.reason());
            }
            uri = ((HookVerdict.Proceed) pre).payload().getString("uri");
            current = call.withParams(Jsonp.provider().createObjectBuilder(call.params()).add("uri", uri).build());
        }
        McpResult result = next.proceed(current);
        if (!(result instanceof McpResult.Success success) || !pipeline.active(HookKind.RESOURCE_POST_FETCH)) {
            return result;
        }
        JsonValue contents = success.result().getOrDefault("contents", JsonValue.EMPTY_JSON_ARRAY);
        HookVerdict post = pipeline.run(context(call, HookKind.RESOURCE_POST_FETCH, uri),
                Jsonp.object().add("uri", uri).add("contents", contents).build());
        if (post instanceof HookVerdict.Blocked blocked) {
            return resourceRefusal(uri, blocked.reason());
        }
        JsonValue replaced = ((HookVerdict.Proceed) post).payload().get("contents");
        return replaced.equals(contents) ? success
                : McpResult.Success.of(Jsonp.provider().createObjectBuilder(success.result()).add("contents", replaced).build());
    }

    private McpResult promptGet(McpCall call, McpChain next) {
        if (!(call.params().get("name") instanceof JsonString nameValue)) {
            return next.proceed(call);
        }
        if (!(arguments(call) instanceof JsonObject arguments)) {
            return next.proceed(call);
        }
        String name = nameValue.getString();
        JsonObject args = arguments;
        McpCall current = call;
        if (pipeline.active(HookKind.PROMPT_PRE_FETCH)) {
            HookVerdict pre = pipeline.run(context(call, HookKind.PROMPT_PRE_FETCH, name),
                    Jsonp.object().add("name", name).add("arguments", args).build());
            if (pre instanceof HookVerdict.Blocked blocked) {
                return promptRefusal(blocked.reason());
            }
            JsonObject payload = ((HookVerdict.Proceed) pre).payload();
            name = payload.getString("name");
            args = payload.getJsonObject("arguments");
            current = call.withParams(Jsonp.provider().createObjectBuilder(call.params()).add("name", name).add("arguments", args).build());
        }
        McpResult result = next.proceed(current);
        if (!(result instanceof McpResult.Success success) || !pipeline.active(HookKind.PROMPT_POST_FETCH)) {
            return result;
        }
        JsonValue messages = success.result().getOrDefault("messages", JsonValue.EMPTY_JSON_ARRAY);
        HookVerdict post = pipeline.run(context(call, HookKind.PROMPT_POST_FETCH, name),
                Jsonp.object().add("name", name).add("arguments", args).add("messages", messages).build());
        if (post instanceof HookVerdict.Blocked blocked) {
            return promptRefusal(blocked.reason());
        }
        JsonValue replaced = ((HookVerdict.Proceed) post).payload().get("messages");
        return replaced.equals(messages) ? success
                : McpResult.Success.of(Jsonp.provider().createObjectBuilder(success.result()).add("messages", replaced).build());
    }

    /**
     * The call's {@code arguments} as its handler reads them: absent and {@code null} both mean no
     * arguments ({@code {}}). Read any other way, {@code "arguments": null} would slip past every
     * hook while the handler still runs the call.
     */
    private static JsonValue arguments(McpCall call) {
        JsonValue value = call.params().getOrDefault("arguments", JsonValue.EMPTY_JSON_OBJECT);
        return value.getValueType() == JsonValue.ValueType.NULL ? JsonValue.EMPTY_JSON_OBJECT : value;
    }

    private static HookContext context(McpCall call, HookKind kind, String target) {
        return new HookContext(call.principal().id(), call.principal().tenant(), kind, target);
    }

    /** spec 6.1 rule 2: an error CallToolResult whose text is the reason. */
    private static McpResult toolRefusal(McpCall call, String reason) {
        return McpResult.Success.of(ToolMethods.toJson(ToolResult.error(reason), call.revision()));
    }

    /** spec 6.1 rule 2: a ReadResourceResult with isError and one text/plain entry holding the reason. */
    private static McpResult resourceRefusal(String uri, String reason) {
        return McpResult.Success.of(Jsonp.object()
                .add("contents", Jsonp.array().add(Jsonp.object()
                        .add("uri", uri)
                        .add("mimeType", "text/plain")
                        .add("text", reason)))
                .add("isError", true)
                .build());
    }

    /** spec 6.1 rule 2: a GetPromptResult with isError, the reason as description and no messages. */
    private static McpResult promptRefusal(String reason) {
        return McpResult.Success.of(Jsonp.object()
                .add("description", reason)
                .add("messages", JsonValue.EMPTY_JSON_ARRAY)
                .add("isError", true)
                .build());
    }
}
