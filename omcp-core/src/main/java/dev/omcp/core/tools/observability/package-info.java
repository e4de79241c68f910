/**
 * The builtin observability tools agents call over MCP, and what they share: argument schemas and
 * parsing, the parallel fan-out to capable sources with partial results, the service catalog.
 */
package dev.omcp.core.tools.observability;
