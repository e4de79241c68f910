package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryBusyException;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.ports.plugins.StagedBundle;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.text.LogField;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs a {@code .tgz} bundle into the plugins directory: unpack into a hidden staging directory,
 * verify it exactly as the loader does with every check required, then rename it into place and
 * re-scan. An older version than the one installed is refused unless a downgrade was allowed, and
 * the installed version with other contents always ({@link VersionChange}); so is a directory of
 * that name holding another plugin, such as a pinned version ({@link InstallTarget}). A refused
 * bundle writes nothing; a bundle that verifies but does not load is taken back and the install it
 * replaced put back live, so a broken upgrade never leaves a connector type
 * without its plugin. Used by the management API and by {@code omcp plugin install}. The plugins
 * directory is held ({@link PluginStore#lockForChange()}) from the first look at the installed
 * version until the earlier install is settled, so another process's install or removal cannot
 * interleave its renames with this one's.
 */
public final class BundleInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(BundleInstaller.class);
    /** Characters of a refusal a log line keeps: every violation of a bundle that breaks a few rules. */
    private static final int MAX_LOGGED_REASON = 1_000;

    private final PluginStore store;
    private final Set<String> builtinNames;
    private final SemanticVersion serverVersion;

    public BundleInstaller(PluginStore store, Set<String> builtinNames, SemanticVersion serverVersion) {
        this.store = Objects.requireNonNull(store, "store");
        this.builtinNames = Set.copyOf(builtinNames);
        this.serverVersion = Objects.requireNonNull(serverVersion, "serverVersion");
    }

    /** What the bundle must contain, when it came from a catalog entry. */
    public record Expected(String name, String version) {
        public Expected {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(version, "version");
        }
    }

    /**
     * Verifies and installs {@code tarball}.
     *
     * @param expected the catalog's name and version the bundle must carry, or empty for an upload
     * @param checks what strict mode would say before the commit, and whether the plugin loaded after it
     * @param downgrade whether a version older than the installed one may replace it
     */
    public InstallOutcome install(byte[] tarball, Optional<Expected> expected, InstallChecks checks, DowngradePolicy downgrade) {
        if (!store.trustRoot().isLoaded()) {
            return new InstallOutcome.Refused(InstallOutcome.Kind.NO_TRUST_ROOT, store.trustRoot().unavailableReason());
        }
        try (PluginStore.ChangeLock held = store.lockForChange(); StagedBundle staged = store.stage(tarball)) {
            PluginCandidate candidate = staged.candidate();
            Admission admission = LoadDecision.decide(VerificationPolicy.install(), store.trustRoot(), candidate, serverVersion);
            String refusal = switch (admission) {
                case Admission.Load load -> null;
                case Admission.Skip skip -> skip.reason();
                case Admission.RefuseStart refuse -> "the bundle does not verify: " + String.join("; ", candidate.problems());
            };
            if (refusal != null) {
                return refused(InstallOutcome.Kind.VERIFICATION_FAILED, refusal);
            }
            ConnectorManifest manifest = candidate.manifest().orElseThrow();
            if (expected.isPresent() && (!expected.get().name().equals(manifest.name()) || !expected.get().version().equals(manifest.version()))) {
                return refused(InstallOutcome.Kind.VERIFICATION_FAILED, "the catalog promised " + expected.get().name() + " "
                        + expected.get().version() + " but the bundle holds " + manifest.name() + " " + manifest.version());
            }
            if (builtinNames.contains(manifest.name())) {
                return refused(InstallOutcome.Kind.NAME_CONFLICT, "'" + manifest.name()
                        + "' is a builtin connector, which always takes precedence; a plugin of that name would never load");
            }
            Optional<PluginCandidate> installed = store.installed(manifest.name());
            Optional<String> occupied = InstallTarget.refusal(installed, manifest);
            if (occupied.isPresent()) {
                return refused(InstallOutcome.Kind.NAME_CONFLICT, occupied.get());
            }
            Optional<String> downgradedFrom;
            switch (VersionChange.of(installed, candidate, downgrade)) {
                case VersionChange.Allowed allowed -> downgradedFrom = allowed.downgradedFrom();
                case VersionChange.Refused versionRefused -> {
                    return refused(versionRefused.kind(), versionRefused.reason());
                }
            }
            List<String> problems = checks.refusalsWith(candidate);
            if (!problems.isEmpty()) {
                return refused(InstallOutcome.Kind.VERIFICATION_FAILED,
                        "installing it would make a re-scan trip strict mode: " + String.join("; ", problems));
            }
            staged.commit();
            InstallChecks.Rescanned rescanned = checks.rescan(manifest.name());
            if (rescanned.loaded() || !checks.live()) {
                if (downgradedFrom.isPresent()) {
                    LOG.warn("event=plugin-downgraded plugin={} version={} from={} reason=\"the install allowed a downgrade\"", manifest.name(),
                            manifest.version(), downgradedFrom.get());
                } else {
                    LOG.info("event=plugin-installed plugin={} version={}", manifest.name(), manifest.version());
                }
                return new InstallOutcome.Installed(manifest.name(), manifest.version(), rescanned.loaded(), rescanned.detail(), downgradedFrom);
            }
            return takeBack(staged, manifest, rescanned.detail(), checks);
        } catch (BundleRejectedException e) {
            return refused(InstallOutcome.Kind.VERIFICATION_FAILED, e.getMessage());
        } catch (PluginDirectoryBusyException e) {
            return refused(InstallOutcome.Kind.BUSY, e.getMessage());
        } catch (PluginDirectoryWriteException e) {
            return refused(InstallOutcome.Kind.STORAGE_FAILED, e.getMessage());
        }
    }

    /** The new version verified but did not load: put the earlier install back live, or leave none. */
    private static InstallOutcome takeBack(StagedBundle staged, ConnectorManifest manifest, String whyNotLoaded, InstallChecks checks) {
        String what = manifest.name() + " " + manifest.version() + " verified but did not load (" + whyNotLoaded + ")";
        boolean earlierBack;
        try {
            earlierBack = staged.rollBack();
        } catch (UncheckedIOException e) {
            LOG.error("event=plugin-rollback-failed plugin={} version={} reason=\"{}\"", manifest.name(), manifest.version(),
                    LogField.of(e.getMessage()));
            // not an install: the new version sits in the directory unloaded, and a 201 would read as success to a script
            return refused(InstallOutcome.Kind.STORAGE_FAILED, what + ", and taking it back failed (" + e.getMessage()
                    + "): the new version stays in the plugins directory, not loaded. Fix the directory (space, permissions), "
                    + "then install a working version again or remove '" + manifest.name() + "' with `omcp plugin remove`.");
        }
        InstallChecks.Rescanned restored = checks.rescan(manifest.name());
        String after = !earlierBack ? "nothing was installed"
                : restored.loaded() ? "the version it would have replaced is back in place and loaded"
                : "the version it would have replaced is back in place, but did not load either: " + restored.detail();
        return refused(InstallOutcome.Kind.LOAD_FAILED, what + "; " + after + ". Fix the plugin (the gateway log has the "
                + "loader's error) and install it again.");
    }

    private static InstallOutcome refused(InstallOutcome.Kind kind, String reason) {
        // the reason quotes the bundle's own text (entry names, package.json values, schema violations), many of them
        LOG.warn("event=plugin-install-refused kind={} reason=\"{}\"", kind, LogField.of(reason, MAX_LOGGED_REASON));
        return new InstallOutcome.Refused(kind, reason);
    }
}
