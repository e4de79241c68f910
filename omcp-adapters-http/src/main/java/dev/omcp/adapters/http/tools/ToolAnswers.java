package dev.omcp.adapters.http.tools;

import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Turns what became of a tool call into an HTTP answer, the same way for every route that answers
 * with a tool's result.
 *
 * <table>
 *   <caption>outcome to response</caption>
 *   <tr><td>the tool answered</td><td>200, its {@code structuredContent}</td></tr>
 *   <tr><td>the tool answered an error</td><td>502 {@code OMCP_TOOL_ERROR} with its message</td></tr>
 *   <tr><td>parameters that do not fit the tool</td><td>400 {@code OMCP_INVALID_PARAMETERS}, every violation</td></tr>
 *   <tr><td>the tool is not in this gateway</td><td>503 {@code OMCP_TOOL_UNAVAILABLE}</td></tr>
 *   <tr><td>refused by the interceptor chain</td><td>429 (with {@code Retry-After}) or 403, the refusal's body</td></tr>
 *   <tr><td>the dispatcher answered an error</td><td>502 {@code OMCP_TOOL_CALL_FAILED}</td></tr>
 * </table>
 */
public final class ToolAnswers {
    private ToolAnswers() {}

    /** Answers a route that shows a tool's structured result. */
    public static void answer(Context ctx, ToolOutcome outcome) {
        switch (outcome) {
            case ToolOutcome.Completed completed when !completed.result().isError() -> JsonpExchange.write(ctx, 200,
                    completed.result().structuredContent().orElseGet(() -> Jsonp.object().add("content", content(completed.result())).build()));
            case ToolOutcome.Completed completed -> JsonpExchange.error(ctx, 502, "OMCP_TOOL_ERROR", completed.result().firstText(),
                    tool(completed.tool()));
            default -> refusal(ctx, outcome);
        }
    }

    /**
     * Answers every outcome that is not a completed call (for routes that show even a tool's error
     * result, like the playground). Returns false, writing nothing, for a completed call.
     */
    public static boolean refusal(Context ctx, ToolOutcome outcome) {
        switch (outcome) {
            case ToolOutcome.Completed completed -> {
                return false;
            }
            case ToolOutcome.InvalidArguments invalid -> JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", invalid.violations());
            case ToolOutcome.UnknownTool unknown -> JsonpExchange.error(ctx, 503, "OMCP_TOOL_UNAVAILABLE", "the tool "
                    + unknown.tool() + " is not available in this gateway, so this route cannot answer", tool(unknown.tool()));
            case ToolOutcome.Refused refused -> refused(ctx, refused);
            case ToolOutcome.Failed failed -> JsonpExchange.error(ctx, 502, "OMCP_TOOL_CALL_FAILED", failed.message(),
                    tool(failed.tool()));
        }
        return true;
    }

    private static void refused(Context ctx, ToolOutcome.Refused refused) {
        int status = switch (refused.refusal()) {
            case RATE_LIMITED, TOO_MANY_IN_FLIGHT -> 429;
            case FORBIDDEN -> 403;
            default -> 400;
        };
        JsonObject body = refused.body();
        if (refused.refusal() == Refusal.RATE_LIMITED && body.get("retryAfterSeconds") instanceof JsonNumber seconds) {
            ctx.header("Retry-After", Long.toString(Math.max(1, seconds.longValue())));
        }
        String code = body.get("code") instanceof JsonString s ? s.getString() : "OMCP_TOOL_CALL_REFUSED";
        String message = body.get("error") instanceof JsonString s ? s.getString()
                : body.get("error") instanceof JsonObject error ? error.getString("message", "refused")
                : "the call was refused before the tool ran (" + refused.refusal().name().toLowerCase(java.util.Locale.ROOT) + ")";
        JsonpExchange.error(ctx, status, code, message, Jsonp.object().add("tool", refused.tool()).add("refusal", body).build());
    }

    /** The content blocks of a result, as the tool returned them. */
    static JsonArrayBuilder content(ToolResult result) {
        JsonArrayBuilder blocks = Jsonp.array();
        result.content().forEach(blocks::add);
        return blocks;
    }

    private static JsonObject tool(String name) {
        return Jsonp.object().add("tool", name).build();
    }

    static JsonValue structuredOrNull(ToolResult result) {
        return result.structuredContent().<JsonValue>map(s -> s).orElse(JsonValue.NULL);
    }
}
