/** Handlers of the MCP methods the gateway answers. */
package dev.omcp.core.mcp.handlers;
