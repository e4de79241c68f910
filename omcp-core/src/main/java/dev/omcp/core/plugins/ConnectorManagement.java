package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.HubListing;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.ManageConnectors;
import dev.omcp.ports.plugins.PluginStore;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The connector management use cases behind {@code /api/connectors} and {@code /api/hub/catalog}
 * (spec 4.3, 7.4). Install and upload need {@code ENABLE_UI_INSTALL} (else refused as disabled) and
 * a usable trust root (else refused as such), verify exactly as the loader does, write nothing when
 * refused, and then re-scan so the plugin and its hooks are live without a restart.
 */
public final class ConnectorManagement implements ManageConnectors {
    private final PluginCatalog catalog;
    private final PluginStore store;
    private final Optional<ConnectorHub> hub;
    private final boolean installEnabled;
    private final BundleInstaller installer;
    private final ReentrantLock installs = new ReentrantLock();

    /**
     * @param hub the hub catalog; empty when none is configured ({@code HUB_CATALOG_URL} unset)
     * @param installEnabled {@code ENABLE_UI_INSTALL}
     */
    public ConnectorManagement(PluginCatalog catalog, PluginStore store, Optional<ConnectorHub> hub, boolean installEnabled) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.store = Objects.requireNonNull(store, "store");
        this.hub = Objects.requireNonNull(hub, "hub");
        this.installEnabled = installEnabled;
        this.installer = new BundleInstaller(store, new HashSet<>(catalog.builtinNames()), catalog.serverVersion());
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
    public InstallOutcome install(String name, Optional<String> version) {
        return guarded(() -> hub.<InstallOutcome>map(h -> new HubInstall(h, installer).install(name, version, catalog::refusalsWith))
                .orElseGet(() -> new InstallOutcome.Refused(InstallOutcome.Kind.HUB_UNAVAILABLE, noHub())));
    }

    @Override
    public InstallOutcome upload(byte[] tarball) {
        return guarded(() -> tarball.length > MAX_BUNDLE_BYTES
                ? new InstallOutcome.Refused(InstallOutcome.Kind.TOO_LARGE, "the bundle is larger than " + (MAX_BUNDLE_BYTES >> 20) + " MiB")
                : installer.install(tarball, Optional.empty(), catalog::refusalsWith));
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

    private InstallOutcome guarded(Supplier<InstallOutcome> install) {
        Optional<InstallOutcome.Refused> refusal = installRefusal();
        if (refusal.isPresent()) {
            return refusal.get();
        }
        installs.lock();
        try {
            InstallOutcome outcome = install.get();
            if (!(outcome instanceof InstallOutcome.Installed installed)) {
                return outcome;
            }
            PluginCatalog.Rescan rescan = catalog.rescan();
            if (rescan instanceof PluginCatalog.Rescan.Refused refused) {
                // refusalsWith checked this before the commit; only a concurrent change on disk gets here.
                return new InstallOutcome.Installed(installed.name(), installed.version(), false,
                        "installed, but the re-scan was refused by strict mode: " + String.join("; ", refused.reasons()));
            }
            Optional<ConnectorStatus> status = catalog.statuses().stream()
                    .filter(s -> s.location().equals(installed.name()) && s.origin() == dev.omcp.ports.connectors.ConnectorType.Origin.FILESYSTEM)
                    .findFirst();
            boolean loaded = status.map(s -> s.state() == ConnectorStatus.State.LOADED).orElse(false);
            String detail = status.map(s -> loaded ? "installed and loaded" : "installed but not loaded: " + s.reason())
                    .orElse("installed, but the re-scan did not find it");
            return new InstallOutcome.Installed(installed.name(), installed.version(), loaded, detail);
        } finally {
            installs.unlock();
        }
    }

    private static String noHub() {
        return "no hub catalog is configured; set HUB_CATALOG_URL to the catalog's URL or directory";
    }
}
