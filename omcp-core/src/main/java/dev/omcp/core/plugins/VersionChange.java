package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.Objects;
import java.util.Optional;

/**
 * What installing a bundle does to the version of the plugin in place, and whether that may
 * happen. A newer version, or a first install, may. An older one only when the caller allowed a
 * downgrade: an old bundle keeps its valid signature forever, so installing one can bring back a flaw
 * fixed since. The same version may be installed again only with the same contents; other bytes
 * under a version already installed are a sign of tampering and are refused whatever the policy.
 * Versions are ordered by semantic-version precedence ({@link SemanticVersion}).
 */
sealed interface VersionChange {

    /**
     * The install may go ahead.
     *
     * @param downgradedFrom the higher installed version it replaces, when it is an allowed downgrade
     */
    record Allowed(Optional<String> downgradedFrom) implements VersionChange {
        public Allowed {
            Objects.requireNonNull(downgradedFrom, "downgradedFrom");
        }
    }

    /** The install is refused; nothing may be written. */
    record Refused(InstallOutcome.Kind kind, String reason) implements VersionChange {
        public Refused {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * @param installed the plugin in the place the bundle would take, as a scan reports it
     * @param offered the verified bundle (its manifest is present)
     */
    static VersionChange of(Optional<PluginCandidate> installed, PluginCandidate offered, DowngradePolicy policy) {
        ConnectorManifest manifest = offered.manifest().orElseThrow(() -> new IllegalArgumentException("the offered bundle was verified"));
        // Nothing to compare with: no install, or one whose manifest does not read (a repair replaces
        // it); another plugin under this name is refused before (InstallTarget)
        Optional<ConnectorManifest> current = installed.filter(c -> c.name().equals(manifest.name())).flatMap(PluginCandidate::manifest);
        if (current.isEmpty()) {
            return new Allowed(Optional.empty());
        }
        String name = manifest.name();
        String installedVersion = current.get().version();
        Optional<SemanticVersion> have = SemanticVersion.parse(installedVersion);
        Optional<SemanticVersion> want = SemanticVersion.parse(manifest.version());
        int order = have.isPresent() && want.isPresent() ? want.get().compareTo(have.get()) : -1;
        if (order > 0) {
            return new Allowed(Optional.empty());
        }
        if (order == 0) {
            if (installed.get().fingerprint().equals(offered.fingerprint())) {
                return new Allowed(Optional.empty());
            }
            return new Refused(InstallOutcome.Kind.VERSION_CONFLICT, name + " " + manifest.version() + " is installed already, with other"
                    + " contents (package.json, manifest or entry JAR) than this bundle"
                    + (installedVersion.equals(manifest.version()) ? "" : " (installed as " + installedVersion + ")")
                    + ": the same version with other bytes is a sign of tampering, or of a rebuild that should have had a new version;"
                    + " nothing was written. Publish the change under a higher version, or, if you trust this bundle, remove " + name
                    + " from the plugins directory and install it again");
        }
        if (policy == DowngradePolicy.ALLOW) {
            return new Allowed(Optional.of(installedVersion));
        }
        String comparison = have.isPresent() && want.isPresent()
                ? manifest.version() + " is older than the installed " + installedVersion
                : manifest.version() + " cannot be ordered against the installed " + installedVersion + " (a version number past 999999999)";
        return new Refused(InstallOutcome.Kind.DOWNGRADE, name + " " + comparison + ": replacing it would be a downgrade, which an old, validly"
                + " signed bundle with a known flaw could be used for; nothing was written. To go back to " + manifest.version()
                + " on purpose, install again allowing the downgrade (allowDowngrade=true on the management API, --allow-downgrade for"
                + " omcp plugin install); it is audited");
    }
}
