package dev.omcp.core.mcp;

/**
 * A link of the one chain every dispatched JSON-RPC message passes (requests and notifications).
 *
 * <p>Authorization, rate limits, budgets, hooks, Inspect and audit hang here. An interceptor may
 * answer on its own (a refusal, an error), change the call it passes on, or look at the result.
 * Interceptors run in the order they were added to the gateway builder, the first outermost.
 *
 * <p>Called concurrently, on each request's own thread, so implementations must be thread-safe; a
 * cancelled request interrupts that thread. A thrown {@code RuntimeException} is a bug: a request
 * is answered with JSON-RPC error -32603 naming an error id the log line carries (a notification
 * over HTTP with status 500), never with the exception's message. Never return null.
 */
@FunctionalInterface
public interface McpInterceptor {

    /**
     * Handles {@code call}, usually by delegating to {@code next} and adding behaviour around it.
     */
    McpResult intercept(McpCall call, McpChain next);
}
