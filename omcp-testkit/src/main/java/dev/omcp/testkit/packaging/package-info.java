/**
 * Packaging a connector plugin the way the gateway verifies it: a reproducible entry JAR, the
 * manifest with its {@code integrity}, the detached Ed25519/RSA/EC signature, the plugin directory,
 * the {@code .tgz} bundle and a static hub catalog. Connector authors call it from their build; the
 * OMCP build uses it to produce the reference plugins and the local test hub.
 */
package dev.omcp.testkit.packaging;
