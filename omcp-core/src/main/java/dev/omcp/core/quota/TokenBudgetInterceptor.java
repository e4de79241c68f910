package dev.omcp.core.quota;

import dev.omcp.core.mcp.LogText;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpChain;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.handlers.ToolMethods;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.CompactJson;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Charges the answers of {@code query_logs}, {@code query_metrics} and {@code get_service_health}
 * to the caller's daily token budget (spec 7.3, 8) and answers the refusal of spec 7.3 instead of an
 * answer that does not fit.
 *
 * <p>Only a named credential (an API key) is charged; anonymous callers and login sessions of the
 * management plane pass untouched, as do every other method and tool. A credential that has reached
 * its cap is refused before the tool runs, so no backend is asked for an answer that could not be
 * delivered. Otherwise the tool runs (with whatever interceptors and hooks follow this one) and its
 * result is estimated ({@link TokenEstimate}) and charged, in one step with the check; a result that
 * does not fit is replaced by the refusal and nothing is charged. An error result ({@code isError})
 * is never charged: it holds no data, and the model must read what went wrong.
 */
public final class TokenBudgetInterceptor implements McpInterceptor {
    /** spec 8: the tools whose answers are charged. */
    public static final Set<String> CHARGED_TOOLS = Set.of("query_logs", "query_metrics", "get_service_health");

    private static final Logger LOG = LoggerFactory.getLogger(TokenBudgetInterceptor.class);

    private final TokenLedger ledger;
    private final BiPredicate<Principal, String> mayCall;

    /**
     * @param mayCall whether a principal may call a tool of that name (it exists and is visible to
     *     it): a call of any other tool is left to the handler's "unknown tool", never refused for the
     *     budget, which would tell the caller that a tool it may not see exists
     */
    public TokenBudgetInterceptor(TokenLedger ledger, BiPredicate<Principal, String> mayCall) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.mayCall = Objects.requireNonNull(mayCall, "mayCall");
    }

    @Override
    public McpResult intercept(McpCall call, McpChain next) {
        if (!call.method().equals("tools/call") || call.isNotification() || call.principal().authKind() != AuthKind.API_KEY
                || !(call.params().get("name") instanceof JsonString name) || !CHARGED_TOOLS.contains(name.getString())) {
            return next.proceed(call);
        }
        String tool = name.getString();
        String actor = call.principal().id();
        if (mayCall.test(call.principal(), tool) && ledger.check(actor) instanceof BudgetDecision.Refused refused) {
            return refusal(call, tool, refused);
        }
        McpResult result = next.proceed(call);
        if (!(result instanceof McpResult.Success success) || success.result().getBoolean("isError", false)) {
            return result;
        }
        long requested = TokenEstimate.of(success.result());
        if (ledger.charge(actor, requested) instanceof BudgetDecision.Refused refused) {
            return refusal(call, tool, refused);
        }
        return result;
    }

    /**
     * spec 7.3 as this gateway's error results are built (DECISIONS.md): {@code isError} and the body
     * as JSON text in {@code content[0].text}. No {@code structuredContent}, as on every error result:
     * a client that checks it against the tool's {@code outputSchema} (the official TypeScript SDK
     * does, even with {@code isError}) would throw on a body that is not the tool's output.
     */
    private static McpResult refusal(McpCall call, String tool, BudgetDecision.Refused refused) {
        LOG.info("event=token-budget-refused principal=\"{}\" tool={} error={} used={} limit={} requested={} retryAfterSeconds={}",
                LogText.of(call.principal().id()), tool, refused.reason().code(), refused.used(), refused.limit(),
                refused.requested(), refused.retryAfterSeconds().isPresent() ? refused.retryAfterSeconds().getAsLong() : "none");
        JsonObject body = BudgetRefusalBody.of(tool, refused);
        ToolResult result = new ToolResult(List.of(ToolResult.textBlock(CompactJson.of(body))), Optional.empty(), true);
        return McpResult.Success.of(ToolMethods.toJson(result, call.revision()));
    }
}
