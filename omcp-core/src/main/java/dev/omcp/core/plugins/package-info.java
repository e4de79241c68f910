/**
 * Plugin admission (spec 3.5, 5.8): the load decision table as a pure function over check results,
 * {@code compat.serverVersion} ranges, precedence of builtin, filesystem and pinned connectors, the
 * live connector catalog, and the install use case of the management API and CLI.
 */
package dev.omcp.core.plugins;
