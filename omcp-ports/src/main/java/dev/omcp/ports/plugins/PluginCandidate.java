package dev.omcp.ports.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What checking one plugin directory found. Checking reads files and verifies bytes; it never
 * loads code. The core decides from these results whether the plugin loads (spec 3.5).
 *
 * @param location where it was found, for logs: the directory name inside the plugins directory, or
 *     the path given to {@code omcp plugin verify}
 * @param origin {@link ConnectorType.Origin#FILESYSTEM} or {@link ConnectorType.Origin#PINNED}
 * @param name the connector name from the package marker, or the directory name when the marker
 *     could not be read
 * @param manifest the parsed manifest, present only when {@code manifestCheck} passed
 * @param manifestCheck the package marker, the manifest's JSON Schema validation (every violation
 *     listed) and the cross-file rules (marker name equals manifest name, entry file present)
 * @param integrity whether the manifest's {@code integrity} equals the SHA-256 of the entry JAR
 * @param signature whether {@code manifest.json.sig} verifies the raw manifest bytes against the
 *     trust root
 * @param fingerprint identifies the exact bytes checked (manifest and entry JAR): two candidates
 *     with the same fingerprint are the same plugin
 */
public record PluginCandidate(
        String location,
        ConnectorType.Origin origin,
        String name,
        Optional<ConnectorManifest> manifest,
        CheckResult manifestCheck,
        CheckResult integrity,
        CheckResult signature,
        String fingerprint) {

    public PluginCandidate {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(manifestCheck, "manifestCheck");
        Objects.requireNonNull(integrity, "integrity");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (origin == ConnectorType.Origin.BUILTIN) {
            throw new IllegalArgumentException("a plugin candidate comes from the filesystem, never from the builtins");
        }
        if (manifest.isPresent() != manifestCheck.ok()) {
            throw new IllegalArgumentException("the manifest is present exactly when its check passed");
        }
    }

    /** Whether manifest, integrity and signature all passed: what strict mode demands. */
    public boolean fullyVerified() {
        return manifestCheck.ok() && integrity.ok() && signature.ok();
    }

    /** Every problem of every check that did not pass, in check order. */
    public List<String> problems() {
        return java.util.stream.Stream.of(manifestCheck, integrity, signature)
                .flatMap(check -> check.problems().stream())
                .toList();
    }
}
