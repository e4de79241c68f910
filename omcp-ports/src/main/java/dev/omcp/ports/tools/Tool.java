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
     * it with an error id and answers an error result naming that id, without the exception's
     * message. So it does for a {@code RuntimeException}, a {@code StackOverflowError}, a
     * {@code LinkageError}, an {@code AssertionError} and a null result; other errors
     * ({@code OutOfMemoryError}) are not caught. The gateway sets no deadline on the call: a
     * cancellation by the agent interrupts its thread.
     */
    ToolResult call(ToolCall call);
}
