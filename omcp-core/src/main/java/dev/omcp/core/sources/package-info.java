/**
 * Live sources: the registry that turns source definitions into connectors, routes tools to them
 * by declared and implemented capability, respects tenant binding, and implements the management
 * use cases of {@link dev.omcp.ports.sources.ManageSources}.
 */
package dev.omcp.core.sources;
