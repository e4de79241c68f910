/**
 * Management routes answered by tools: {@code /api/services}, {@code /api/topology} and the
 * playground, each run as the caller through the same interceptor chain as {@code /mcp}.
 */
package dev.omcp.adapters.http.tools;
