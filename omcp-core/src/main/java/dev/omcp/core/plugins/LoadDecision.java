package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.Optional;

/**
 * The plugin load decision table of spec 3.5 as a pure function of the check results.
 *
 * <table>
 *   <caption>spec 3.5</caption>
 *   <tr><th>Condition</th><th>Result</th></tr>
 *   <tr><td>verification on, trust root present, manifest + signature + integrity ok</td><td>loaded</td></tr>
 *   <tr><td>verification on, any check fails or trust root missing/invalid</td><td>skipped with logged reason</td></tr>
 *   <tr><td>strict mode, plugin present but unverifiable, or trust root missing/unloadable</td><td>server refuses to start</td></tr>
 *   <tr><td>verification off</td><td>filesystem plugins load unsigned</td></tr>
 *   <tr><td>builtin connector</td><td>always loaded (never reaches this class)</td></tr>
 * </table>
 *
 * <p>Two rules apply in every row: an invalid manifest is never loaded (spec 2.2), and a plugin whose
 * {@code compat.serverVersion} excludes this gateway is skipped with the reason (DECISIONS.md).
 */
public final class LoadDecision {
    private LoadDecision() {}

    /**
     * Whether the gateway may start at all with this trust root: strict mode needs a usable one even
     * before any plugin is looked at.
     */
    public static Optional<String> refuseStartWithout(VerificationPolicy policy, TrustRoot trustRoot) {
        if (policy.strict() && !trustRoot.isLoaded()) {
            return Optional.of(trustRoot.unavailableReason() + "; PLUGIN_REQUIRE_SIGNATURE is on, so the gateway does not start");
        }
        return Optional.empty();
    }

    /** Decides about one filesystem or pinned plugin. */
    public static Admission decide(VerificationPolicy policy, TrustRoot trustRoot, PluginCandidate candidate, SemanticVersion serverVersion) {
        if (policy.strict()) {
            if (!trustRoot.isLoaded()) {
                return new Admission.RefuseStart(trustRoot.unavailableReason() + "; PLUGIN_REQUIRE_SIGNATURE is on");
            }
            if (!candidate.fullyVerified()) {
                return new Admission.RefuseStart("plugin '" + candidate.location() + "' is unverifiable and PLUGIN_REQUIRE_SIGNATURE is on: "
                        + String.join("; ", candidate.problems()));
            }
        } else if (policy.verify()) {
            if (!trustRoot.isLoaded()) {
                return new Admission.Skip(trustRoot.unavailableReason());
            }
            if (!candidate.fullyVerified()) {
                return new Admission.Skip(String.join("; ", candidate.problems()));
            }
        } else if (!candidate.manifestCheck().ok()) {
            // spec 2.2: an invalid manifest means the plugin is not loaded, verification or not.
            return new Admission.Skip(candidate.manifestCheck().summary());
        }
        ConnectorManifest manifest = candidate.manifest().orElseThrow();
        return compatibility(manifest, serverVersion).<Admission>map(Admission.Skip::new).orElseGet(Admission.Load::new);
    }

    /** Why {@code manifest} does not fit {@code serverVersion}, or empty when it does. */
    static Optional<String> compatibility(ConnectorManifest manifest, SemanticVersion serverVersion) {
        if (manifest.serverVersion().isEmpty()) {
            return Optional.empty();
        }
        String range = manifest.serverVersion().get();
        try {
            if (VersionRange.parse(range).includes(serverVersion)) {
                return Optional.empty();
            }
            return Optional.of("compat.serverVersion '" + range + "' excludes this gateway's version " + serverVersion
                    + "; install a version of '" + manifest.name() + "' made for it");
        } catch (IllegalArgumentException e) {
            return Optional.of("compat.serverVersion '" + range + "' is not a version range: " + e.getMessage());
        }
    }
}
