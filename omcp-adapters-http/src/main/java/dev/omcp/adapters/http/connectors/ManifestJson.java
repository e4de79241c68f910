package dev.omcp.adapters.http.connectors;

import dev.omcp.sdk.manifest.ConnectorManifest;

/**
 * The one place this package touches the manifest's jakarta.json {@code configSchema}: it hands
 * the JSON text over, so the Jackson side never meets a JSON-P type (ARCHITECTURE.md, JSON).
 */
final class ManifestJson {
    private ManifestJson() {}

    static String configSchema(ConnectorManifest manifest) {
        return manifest.configSchema().toString();
    }
}
