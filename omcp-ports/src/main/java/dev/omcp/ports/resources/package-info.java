/** MCP resources: what the gateway lets agents read. */
package dev.omcp.ports.resources;
