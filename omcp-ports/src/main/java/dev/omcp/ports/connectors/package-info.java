/** Connector types as the gateway sees them: builtins and loaded plugins. */
package dev.omcp.ports.connectors;
