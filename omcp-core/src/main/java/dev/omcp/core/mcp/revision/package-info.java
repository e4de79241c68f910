/** MCP protocol revisions and how they shape answers. */
package dev.omcp.core.mcp.revision;
