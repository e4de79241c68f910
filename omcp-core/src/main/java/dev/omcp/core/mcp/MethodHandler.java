package dev.omcp.core.mcp;

/** Answers one JSON-RPC method. */
@FunctionalInterface
public interface MethodHandler {
    McpResult handle(McpCall call);
}
