package dev.omcp.core.mcp;

/** The rest of the interceptor chain, ending at the method handler. */
@FunctionalInterface
public interface McpChain {
    McpResult proceed(McpCall call);
}
