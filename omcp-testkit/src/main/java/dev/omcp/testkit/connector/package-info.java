/**
 * The connector test kit: what a connector author runs in their own CI. It loads a plugin directory
 * exactly as the gateway does, through the gateway's own {@link dev.omcp.ports.plugins.PluginInspector}
 * (integrity, signature, manifest schema, isolated class loader), then runs the connector against a
 * recorded mock: create, health, every declared capability on a sample query, close.
 */
package dev.omcp.testkit.connector;
