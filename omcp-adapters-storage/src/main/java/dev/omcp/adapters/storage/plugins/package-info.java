/**
 * Plugins on disk (spec 2.1-2.4, 5.8): discovery of plugin directories, manifest validation against
 * the JSON Schema, integrity and detached-signature checks against the PEM trust root, one class
 * loader per plugin that exposes only the SDK, hook modules, in-process tarball extraction, and the
 * static hub catalog, including the built-in hub read from the class path. Nothing here uses the
 * network except {@link dev.omcp.adapters.storage.plugins.StaticConnectorHub} fetching an
 * operator-configured catalog.
 */
package dev.omcp.adapters.storage.plugins;
