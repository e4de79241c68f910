/**
 * Filesystem plugins and the connector hub as the core sees them: what a check of a plugin
 * directory found, what loading it produced, staged bundles, and the hub catalog. The ports are
 * implemented by the storage adapter; the core decides what to load (spec 3.5, 5.8), and the
 * connector test kit reaches the same checks through {@link dev.omcp.ports.plugins.PluginStore}.
 */
package dev.omcp.ports.plugins;
