package dev.omcp.ports.plugins;

import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.Objects;

/**
 * One published version of a connector in the hub catalog (spec 2.18).
 *
 * @param version the semantic version
 * @param manifest the connector manifest of this version
 * @param tarballUrl where the signed {@code .tgz} bundle is, as written in the catalog (relative URLs
 *     are resolved against the catalog's base)
 * @param signatureUrl where the detached signature of the tarball is
 * @param integrity {@code sha256-<base64>} of the tarball
 * @param changelog what changed in this version; may be empty
 * @param published when it was published (ISO-8601 date), or empty string
 */
public record HubRelease(
        String version, ConnectorManifest manifest, String tarballUrl, String signatureUrl, String integrity, String changelog, String published) {
    public HubRelease {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(tarballUrl, "tarballUrl");
        Objects.requireNonNull(signatureUrl, "signatureUrl");
        Objects.requireNonNull(integrity, "integrity");
        Objects.requireNonNull(changelog, "changelog");
        Objects.requireNonNull(published, "published");
    }
}
