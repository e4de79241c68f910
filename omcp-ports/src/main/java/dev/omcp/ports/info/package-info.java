/** Public discovery: gateway info, MCP conformance posture, the caller's identity. */
package dev.omcp.ports.info;
