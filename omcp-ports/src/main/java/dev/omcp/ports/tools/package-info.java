/** Tools as the MCP server serves them: definitions, calls and results. */
package dev.omcp.ports.tools;
