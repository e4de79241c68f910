package dev.omcp.ports.mcp;

/** The wire a JSON-RPC message arrived on. */
public enum McpTransport {
    /** Streamable HTTP at {@code /mcp} (MCP 2025-03-26 and later). */
    STREAMABLE_HTTP,
    /** One JSON-RPC message per WebSocket text frame at {@code /mcp/ws}. */
    WEBSOCKET,
    /** A call made inside the process, for example by the management playground. */
    IN_PROCESS
}
