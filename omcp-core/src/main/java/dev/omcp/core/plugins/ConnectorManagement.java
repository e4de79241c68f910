package dev.omcp.core.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.ConnectorUsers;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.HubListing;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.ManageConnectors;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.ports.plugins.RemoveOutcome;
import dev.omcp.ports.plugins.SourceAudience;
import dev.omcp.sdk.connector.ConnectorFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The connector management use cases behind {@code /api/connectors} and {@code /api/hub/catalog}
 * (spec 4.3, 7.4). Install and upload need {@code ENABLE_UI_INSTALL} (else refused as disabled) and
 * a usable trust root (else refused as such), verify exactly as the loader does, write nothing when
 * refused, and then re-scan so the plugin and its hooks are live without a restart; an install that
 * replaced the connector serving its type reconnects every source of the type to the new version,
 * any other one connects those that have no connector, as at a start ({@link InstalledSources}). A version that
 * verifies but does not load is taken back and the one it replaced is live again. A removal (also
 * gated by {@code ENABLE_UI_INSTALL}) is refused while sources use the plugin's connector unless
 * forced, and reconnects those sources afterwards; installs and removals run one at a time: one that
 * cannot start within a few seconds, because another is still running (a slow hub download), is
 * refused as busy rather than queued without bound.
 */
public final class ConnectorManagement implements ManageConnectors {
    private final PluginCatalog catalog;
    private final PluginStore store;
    private final Optional<ConnectorHub> hub;
    private final boolean installEnabled;
    private final BundleInstaller installer;
    private final PluginRemoval removal;
    private final ConnectorUsers users;
    /**
     * How long an install or removal waits for the one in progress: long enough to ride out a short
     * one, short enough that callers are answered rather than queued behind a slow hub download.
     */
    static final Duration INSTALL_WAIT = Duration.ofSeconds(3);

    private final InstallChecks liveChecks = new LiveChecks();
    private final ReentrantLock installs = new ReentrantLock();
    private final Duration installWait;

    /**
     * @param hub the hub catalog; empty when there is none (the launcher passes a hub that says why instead:
     *     {@code HUB_CATALOG_URL=off}, or a jar without its built-in hub)
     * @param installEnabled {@code ENABLE_UI_INSTALL}
     * @param users the sources, which a removal must not leave without their connector unasked
     */
    public ConnectorManagement(PluginCatalog catalog, PluginStore store, Optional<ConnectorHub> hub, boolean installEnabled,
            ConnectorUsers users) {
        this(catalog, store, hub, installEnabled, users, INSTALL_WAIT);
    }

    /** @param installWait how long an install or removal waits for the one in progress before it is refused as busy */
    ConnectorManagement(PluginCatalog catalog, PluginStore store, Optional<ConnectorHub> hub, boolean installEnabled,
            ConnectorUsers users, Duration installWait) {
        this.installWait = Objects.requireNonNull(installWait, "installWait");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.store = Objects.requireNonNull(store, "store");
        this.hub = Objects.requireNonNull(hub, "hub");
        this.installEnabled = installEnabled;
        this.installer = new BundleInstaller(store, new HashSet<>(catalog.builtinNames()), catalog.serverVersion());
        this.removal = new PluginRemoval(store, new HashSet<>(catalog.builtinNames()));
        this.users = Objects.requireNonNull(users, "users");
    }

    @Override
    public List<ConnectorStatus> connectors() {
        return catalog.statuses();
    }

    @Override
    public HubListing hubCatalog() throws HubUnavailableException {
        if (hub.isEmpty()) {
            throw new HubUnavailableException(noHub());
        }
        return HubListings.fromStatuses(hub.get().catalog(), catalog.statuses());
    }

    @Override
    public InstallOutcome install(String name, Optional<String> version, DowngradePolicy downgrade, SourceAudience audience) {
        return guarded(audience, () -> hub.<InstallOutcome>map(h -> new HubInstall(h, installer).install(name, version, liveChecks, downgrade))
                .orElseGet(() -> new InstallOutcome.Refused(InstallOutcome.Kind.HUB_UNAVAILABLE, noHub())));
    }

    @Override
    public InstallOutcome upload(byte[] tarball, DowngradePolicy downgrade, SourceAudience audience) {
        return guarded(audience, () -> tarball.length > MAX_BUNDLE_BYTES
                ? new InstallOutcome.Refused(InstallOutcome.Kind.TOO_LARGE, "the bundle is larger than " + (MAX_BUNDLE_BYTES >> 20) + " MiB")
                : installer.install(tarball, Optional.empty(), liveChecks, downgrade));
    }

    @Override
    public RemoveOutcome remove(String name, boolean force, SourceAudience audience) {
        if (!installEnabled) {
            return new RemoveOutcome.Refused(RemoveOutcome.Kind.DISABLED, "runtime install and removal are off; set "
                    + "ENABLE_UI_INSTALL=true to remove connectors through the API, or use omcp plugin remove with the gateway stopped");
        }
        // under the install lock: no install can be between moving an earlier version aside and settling it
        if (!takeInstallLock()) {
            return new RemoveOutcome.Refused(RemoveOutcome.Kind.BUSY, busy("nothing was removed"));
        }
        try {
            return removal.remove(name, force, new LiveRemovalChecks(), audience);
        } finally {
            installs.unlock();
        }
    }

    @Override
    public boolean installEnabled() {
        return installEnabled;
    }

    @Override
    public Optional<InstallOutcome.Refused> installRefusal() {
        if (!installEnabled) {
            return Optional.of(new InstallOutcome.Refused(InstallOutcome.Kind.DISABLED,
                    "runtime install is off; set ENABLE_UI_INSTALL=true to install connectors through the API, or use omcp plugin install"));
        }
        if (!store.trustRoot().isLoaded()) {
            return Optional.of(new InstallOutcome.Refused(InstallOutcome.Kind.NO_TRUST_ROOT, store.trustRoot().unavailableReason()));
        }
        return Optional.empty();
    }

    private InstallOutcome guarded(SourceAudience audience, Supplier<InstallOutcome> install) {
        Objects.requireNonNull(audience, "audience");
        Optional<InstallOutcome.Refused> refusal = installRefusal();
        if (refusal.isPresent()) {
            return refusal.get();
        }
        if (!takeInstallLock()) {
            return new InstallOutcome.Refused(InstallOutcome.Kind.BUSY, busy("nothing was written"));
        }
        try {
            // what served each type before: an upgrade must not leave connected sources on the version it replaced
            Map<String, ConnectorFactory> servedBefore = new HashMap<>();
            catalog.all().forEach(type -> servedBefore.put(type.name(), type.factory()));
            InstallOutcome outcome = install.get();
            if (outcome instanceof InstallOutcome.Installed installed && installed.loaded()) {
                // sources a forced removal left without a connector would otherwise wait for a restart or a PUT
                return InstalledSources.connect(installed, Optional.ofNullable(servedBefore.get(installed.name())),
                        catalog.find(installed.name()), users, audience);
            }
            return outcome;
        } finally {
            installs.unlock();
        }
    }

    /** Whether the install lock was had within {@link #installWait}; an interrupted wait is not had. */
    private boolean takeInstallLock() {
        try {
            return installs.tryLock(installWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String busy(String nothingDone) {
        return "another install, upgrade or removal is running in this gateway; " + nothingDone + ". Try again once it has finished "
                + "(GET /api/connectors shows its result)";
    }

    /** The running gateway's answers to an install: strict mode before the commit, the re-scan after it. */
    private final class LiveChecks implements InstallChecks {
        @Override
        public List<String> refusalsWith(PluginCandidate staged) {
            return catalog.refusalsWith(staged);
        }

        @Override
        public Rescanned rescan(String name) {
            PluginCatalog.Rescan rescan = catalog.rescan();
            if (rescan instanceof PluginCatalog.Rescan.Refused refused) {
                // refusalsWith checked this before the commit; only a concurrent change on disk gets here
                return new Rescanned(false, "the re-scan was refused by strict mode: " + String.join("; ", refused.reasons()));
            }
            Optional<ConnectorStatus> status = catalog.statuses().stream()
                    .filter(s -> s.location().equals(name) && s.origin() == ConnectorType.Origin.FILESYSTEM)
                    .findFirst();
            boolean loaded = status.map(s -> s.state() == ConnectorStatus.State.LOADED).orElse(false);
            return new Rescanned(loaded, status.map(s -> loaded ? "installed and loaded" : s.reason())
                    .orElse("the re-scan did not find it"));
        }
    }

    /** The running gateway's answers to a removal: its live sources and catalog. */
    private final class LiveRemovalChecks implements PluginRemoval.Checks {
        @Override
        public List<String> sourcesLeftWithout(String location, String type) {
            // a plugin that is skipped or shadowed serves no source: removing it takes nothing away
            boolean serving = catalog.statuses().stream().anyMatch(s -> s.origin() == ConnectorType.Origin.FILESYSTEM
                    && s.location().equals(location) && s.state() == ConnectorStatus.State.LOADED);
            return serving ? users.sourcesOfType(type) : List.of();
        }

        @Override
        public List<PluginPin> pins() {
            return catalog.pins();
        }

        @Override
        public PluginRemoval.Unloaded afterRemoval(String type) {
            if (catalog.rescan() instanceof PluginCatalog.Rescan.Refused refused) {
                // fewer plugins never trip strict mode: only another change on disk gets here, and the snapshot
                // kept in force still serves the removed plugin's connector until a re-scan is accepted
                return new PluginRemoval.Unloaded(List.of(), "but its connector stays loaded until the next start or accepted "
                        + "re-scan: strict mode refused the re-scan: " + String.join("; ", refused.reasons()));
            }
            users.reconnect(type);
            return new PluginRemoval.Unloaded(catalog.find(type).isPresent() ? List.of() : users.sourcesOfType(type), "");
        }
    }

    private static String noHub() {
        return "no hub catalog is configured; set HUB_CATALOG_URL to the catalog's URL or directory";
    }
}
