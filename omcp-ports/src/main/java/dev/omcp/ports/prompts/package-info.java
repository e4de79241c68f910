/** MCP prompts: reusable instructions an agent can fetch. */
package dev.omcp.ports.prompts;
