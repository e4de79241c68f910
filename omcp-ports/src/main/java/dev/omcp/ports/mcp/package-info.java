/**
 * The MCP server as transports see it: inbound messages, replies, refusals, sessions.
 */
package dev.omcp.ports.mcp;
