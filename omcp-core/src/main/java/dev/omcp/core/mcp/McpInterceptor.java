package dev.omcp.core.mcp;

/**
 * A link of the one chain every dispatched JSON-RPC message passes (requests and notifications).
 *
 * <p>Authorization, rate limits, budgets, hooks, Inspect and audit hang here. An interceptor may
 * answer on its own (a refusal, an error), change the call it passes on, or look at the result.
 * Interceptors run in the order they were added to the gateway builder, the first outermost.
 */
@FunctionalInterface
public interface McpInterceptor {

    /**
     * Handles {@code call}, usually by delegating to {@code next} and adding behaviour around it.
     */
    McpResult intercept(McpCall call, McpChain next);
}
