package dev.omcp.ports.tools;

/**
 * A tool the gateway serves over MCP.
 *
 * <p>The gateway validates the arguments against {@link ToolDefinition#inputSchema()} before
 * {@link #call} runs, so implementations may rely on required fields, types and bounds. Calls run
 * on virtual threads, concurrently; implementations must be thread-safe.
 */
public interface Tool {

    /** The definition {@code tools/list} publishes. */
    ToolDefinition definition();

    /**
     * Runs one call.
     *
     * <p>Expected failures (a backend down, a service unknown) are returned as results with
     * {@link ToolResult#isError()} set, not thrown. A thrown exception is a bug: the gateway logs
     * it and answers an error result without its details.
     */
    ToolResult call(ToolCall call);
}
