/** MCP sessions: ids, binding to a credential, idle expiry, attached streams, client requests. */
package dev.omcp.core.mcp.session;
