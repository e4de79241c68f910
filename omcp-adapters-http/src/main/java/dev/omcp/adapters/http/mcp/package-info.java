/** MCP transports over HTTP: Streamable HTTP at /mcp and WebSocket at /mcp/ws. */
package dev.omcp.adapters.http.mcp;
