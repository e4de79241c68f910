package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.CheckResult;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.text.LogField;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks one plugin directory without loading any of its code: the package marker, the manifest
 * against the JSON Schema (every violation, up to a bound), the entry JAR's integrity, and the
 * detached signature of the raw manifest bytes (spec 2.1, 2.2, 5.8). Every file is read once, into memory, and the
 * bytes that were checked are the bytes a later load defines classes from.
 *
 * <p>Every file is read with its size bound first, and the manifest is parsed only when the caller's
 * {@link ManifestTrust} admits its raw bytes: where signatures are demanded (every install, and every
 * scan, listing, recovery and {@code omcp plugin verify} while {@code VERIFY_PLUGINS} is on) only once
 * its signature verified, so a manifest nobody trusted signed never reaches the JSON parser or the
 * schema validator.
 */
final class PluginDirectoryCheck {
    private static final Logger LOG = LoggerFactory.getLogger(PluginDirectoryCheck.class);
    static final String PACKAGE_JSON = "package.json";
    private final ManifestSchema schema;
    private final RevokedKeyLog revokedKeyLog = new RevokedKeyLog();

    PluginDirectoryCheck(ManifestSchema schema) {
        this.schema = schema;
    }

    /**
     * What a check read and found.
     *
     * @param candidate the verdicts
     * @param root the plugin directory
     * @param jar the entry JAR's bytes, or {@code null} when it could not be read
     */
    record Checked(PluginCandidate candidate, Path root, byte[] jar) {}

    /**
     * Checks {@code root}.
     *
     * @param pin for a pinned directory, the name and version it must hold
     * @param manifestTrust when the manifest's raw bytes may be parsed: a manifest it keeps unparsed
     *     fails its check as not read, with the reason (the signature, or files changed since checked)
     * @return empty when the directory is no connector plugin (no {@code package.json}, or no
     *     {@code observabilityMcp} marker of kind {@code connector})
     */
    Optional<Checked> check(Path root, String location, ConnectorType.Origin origin, Optional<PluginPin> pin, TrustRootKeys trust,
            ManifestTrust manifestTrust) {
        return check(Optional.empty(), root, location, origin, pin, trust, manifestTrust);
    }

    /**
     * Checks {@code root}, a directory of the plugins directory {@code pluginsDirectory}, as
     * {@link #check} does; when {@code root} is a symbolic link (a ConfigMap mounted with
     * {@code items} paths makes {@code tempo -> ..data/tempo}), it is followed only to a directory
     * inside the plugins directory, so no link in it reaches out of it.
     */
    Optional<Checked> checkInside(Path pluginsDirectory, Path root, String location, ConnectorType.Origin origin, Optional<PluginPin> pin,
            TrustRootKeys trust, ManifestTrust manifestTrust) {
        return check(Optional.of(pluginsDirectory), root, location, origin, pin, trust, manifestTrust);
    }

    private Optional<Checked> check(Optional<Path> pluginsDirectory, Path root, String location, ConnectorType.Origin origin,
            Optional<PluginPin> pin, TrustRootKeys trust, ManifestTrust manifestTrust) {
        String fallbackName = pin.map(PluginPin::name).orElse(root.getFileName() == null ? location : root.getFileName().toString());
        if (!Files.exists(root.resolve(PACKAGE_JSON), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            if (pin.isPresent()) {
                return Optional.of(failed(location, origin, fallbackName, root,
                        Files.isDirectory(root) ? "the pinned directory has no package.json" : "the pinned directory '" + location + "' does not exist"));
            }
            return Optional.empty();
        }
        // every file is read below the real path resolved here, once: the one the plugins directory check accepted
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            return Optional.of(failed(location, origin, fallbackName, root,
                    "the plugin directory '" + location + "' cannot be read: " + e.getClass().getSimpleName()));
        }
        if (pluginsDirectory.isPresent()) {
            Optional<String> outside = outsidePluginsDirectory(pluginsDirectory.get(), realRoot, location);
            if (outside.isPresent()) {
                return Optional.of(failed(location, origin, fallbackName, root, outside.get()));
            }
        }
        Path packageFile = realRoot.resolve(PACKAGE_JSON);
        byte[] packageBytes;
        try {
            packageBytes = PluginFiles.read(realRoot, packageFile, PluginLimits.MAX_PACKAGE_JSON_BYTES, "package descriptor");
        } catch (PluginFiles.Unreadable e) {
            return Optional.of(failed(location, origin, fallbackName, root, e.getMessage()));
        }
        ManifestMapping.Parsed packageJson = ManifestMapping.parse(packageBytes, PACKAGE_JSON);
        if (packageJson.problem() != null) {
            return Optional.of(failed(location, origin, fallbackName, root, packageJson.problem()));
        }
        PackageMarker marker;
        switch (PackageMarker.read(packageJson.node())) {
            case PackageMarker.Read.NotAConnector notAConnector -> {
                if (pin.isPresent()) {
                    return Optional.of(failed(location, origin, fallbackName, root, notAConnector.why()));
                }
                return Optional.empty();
            }
            case PackageMarker.Read.Invalid invalid -> {
                return Optional.of(failed(location, origin, invalid.name().isEmpty() ? fallbackName : invalid.name(), root, invalid.problem()));
            }
            case PackageMarker.Read.Valid valid -> marker = valid.marker();
        }

        List<String> manifestProblems = new ArrayList<>();
        // as every problem names the manifest: a path may be 1024 characters (PackageMarker.MAX_PATH_LENGTH), and
        // repeated whole by each of twenty violations it crowded the violations out of the reason the API shows
        String manifestShown = PackageMarker.quoted(marker.manifest());
        Optional<Path> manifestFile = PluginFiles.resolveInside(realRoot, marker.manifest());
        byte[] manifestBytes = null;
        if (manifestFile.isEmpty()) {
            manifestProblems.add("package.json: observabilityMcp.manifest '" + PackageMarker.quoted(marker.manifest())
                    + "' escapes the plugin directory");
        } else {
            try {
                manifestBytes = PluginFiles.read(realRoot, manifestFile.get(), PluginLimits.MAX_MANIFEST_BYTES, "manifest");
            } catch (PluginFiles.Unreadable e) {
                manifestProblems.add(e.getMessage());
            }
        }
        // every file is read, size-bounded, before the manifest is parsed: whether it may be parsed is
        // decided over the raw bytes (their signature, or their fingerprint)
        byte[] jar = null;
        String jarProblem = null;
        Optional<Path> jarFile = PluginFiles.resolveInside(realRoot, marker.main());
        if (jarFile.isEmpty()) {
            jarProblem = "package.json: main '" + PackageMarker.quoted(marker.main()) + "' escapes the plugin directory";
        } else {
            try {
                jar = PluginFiles.read(realRoot, jarFile.get(), PluginLimits.MAX_JAR_BYTES, "entry JAR");
            } catch (PluginFiles.Unreadable e) {
                jarProblem = e.getMessage();
            }
        }
        String fingerprint = fingerprint(packageBytes, manifestBytes, jar);
        CheckResult signature = signature(root, realRoot, location, manifestFile, manifestBytes, manifestShown, trust);
        ConnectorManifest manifest = null;
        String unread = manifestBytes == null ? null : manifestTrust.refusal(signature, fingerprint);
        if (unread != null) {
            manifestProblems.add(manifestShown + " was not parsed: " + unread);
        } else if (manifestBytes != null) {
            ManifestMapping.Parsed parsed = ManifestMapping.parse(manifestBytes, manifestShown);
            if (parsed.problem() != null) {
                manifestProblems.add(parsed.problem());
            } else {
                for (String violation : schema.violations(parsed.node())) {
                    manifestProblems.add(manifestShown + (violation.startsWith("/") ? " " : ": ") + violation);
                }
                if (manifestProblems.isEmpty()) {
                    manifest = ManifestMapping.toManifest(parsed.node());
                    if (!manifest.name().equals(marker.name())) {
                        manifestProblems.add(manifestShown + " /name '" + manifest.name() + "' differs from the package marker name '"
                                + marker.name() + "'");
                    }
                    if (pin.isPresent() && !manifest.version().equals(pin.get().version())) {
                        manifestProblems.add(manifestShown + " /version '" + manifest.version() + "' differs from the pinned version '"
                                + pin.get().version() + "'");
                    }
                }
            }
        }
        if (pin.isPresent() && !marker.name().equals(pin.get().name())) {
            manifestProblems.add("package.json names connector '" + marker.name() + "' but the pin asks for '" + pin.get().name() + "'");
        }
        if (jarProblem != null) {
            manifestProblems.add(jarProblem);
        }

        CheckResult manifestCheck = manifestProblems.isEmpty() ? CheckResult.passed() : CheckResult.failed(manifestProblems);
        CheckResult integrity = integrity(manifestCheck.ok() ? manifest : null, jar);
        PluginCandidate candidate = new PluginCandidate(location, origin, marker.name(),
                manifestCheck.ok() ? Optional.of(manifest) : Optional.empty(), manifestCheck, integrity, signature, fingerprint);
        return Optional.of(new Checked(candidate, root, jar));
    }

    private static CheckResult integrity(ConnectorManifest manifest, byte[] jar) {
        if (manifest == null) {
            return CheckResult.notChecked("integrity not checked: the manifest is not valid");
        }
        if (jar == null) {
            return CheckResult.notChecked("integrity not checked: the entry JAR could not be read");
        }
        if (manifest.integrity().isEmpty()) {
            return CheckResult.failed("the manifest has no integrity; add \"integrity\": \"sha256-<base64 of the entry JAR's SHA-256>\"");
        }
        String actual = PluginFiles.integrity(jar);
        boolean equal = MessageDigest.isEqual(actual.getBytes(StandardCharsets.US_ASCII), manifest.integrity().get().getBytes(StandardCharsets.US_ASCII));
        return equal ? CheckResult.passed()
                : CheckResult.failed("integrity mismatch: the manifest says " + manifest.integrity().get() + " but the entry JAR hashes to " + actual
                        + "; the JAR was changed after the manifest was written");
    }

    /** @param root the plugin directory as the scan names it, for the log; {@code realRoot} its real path, where files are read */
    private CheckResult signature(Path root, Path realRoot, String location, Optional<Path> manifestFile, byte[] manifestBytes,
            String manifestName, TrustRootKeys trust) {
        if (!trust.state().isLoaded()) {
            return CheckResult.notChecked("signature not checked: " + trust.state().unavailableReason());
        }
        if (manifestBytes == null || manifestFile.isEmpty()) {
            return CheckResult.notChecked("signature not checked: the manifest could not be read");
        }
        Path signatureFile = manifestFile.get().resolveSibling(manifestFile.get().getFileName() + ".sig");
        if (!Files.exists(signatureFile, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return CheckResult.failed("unsigned: " + manifestName + ".sig is missing beside the manifest");
        }
        byte[] signatureBytes;
        try {
            signatureBytes = PluginFiles.read(realRoot, signatureFile, PluginLimits.MAX_SIGNATURE_BYTES, "signature");
        } catch (PluginFiles.Unreadable e) {
            return CheckResult.failed(e.getMessage());
        }
        Optional<String> problem = trust.verify(manifestBytes, signatureBytes);
        if (problem.isPresent() && problem.get().startsWith(TrustRootKeys.REVOKED)) {
            // the plugin is still skipped or refused as any that does not verify; this line is what to search for
            if (revokedKeyLog.firstTime(root, location, manifestBytes, signatureBytes, problem.get())) {
                LOG.error("event=plugin-key-revoked location=\"{}\" reason=\"{}\"", LogField.of(root), LogField.of(problem.get()));
            }
        } else {
            revokedKeyLog.forget(root);
        }
        return problem.map(p -> CheckResult.failed(manifestName + ".sig: " + p)).orElseGet(CheckResult::passed);
    }

    /** Why {@code realRoot} is not a plugin directory of {@code pluginsDirectory}; empty when it is one. */
    private static Optional<String> outsidePluginsDirectory(Path pluginsDirectory, Path realRoot, String location) {
        Path realPluginsDirectory;
        try {
            realPluginsDirectory = pluginsDirectory.toRealPath();
        } catch (IOException e) {
            return Optional.of("the plugins directory cannot be read: " + e.getClass().getSimpleName());
        }
        if (realRoot.startsWith(realPluginsDirectory) && !realRoot.equals(realPluginsDirectory)) {
            return Optional.empty();
        }
        return Optional.of("the plugin directory '" + location + "' is a symbolic link leading outside the plugins directory; a link"
                + " there is followed only to a directory inside the plugins directory: copy the plugin into it, or mount it"
                + " there");
    }

    private static Checked failed(String location, ConnectorType.Origin origin, String name, Path root, String problem) {
        CheckResult none = CheckResult.notChecked("not checked: the plugin directory is not readable as a plugin");
        return new Checked(new PluginCandidate(location, origin, name, Optional.empty(), CheckResult.failed(problem), none, none,
                "unreadable:" + location), root, null);
    }

    private static String fingerprint(byte[]... parts) {
        ByteArrayOutputStream digests = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            digests.writeBytes(part == null ? new byte[32] : PluginFiles.sha256(part));
        }
        return PluginFiles.hex(PluginFiles.sha256(digests.toByteArray()));
    }
}
