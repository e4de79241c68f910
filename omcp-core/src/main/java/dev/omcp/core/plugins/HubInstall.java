package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubEntry;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.InstallOutcome;
import java.util.Objects;
import java.util.Optional;

/**
 * Installs a connector named in the hub catalog: only the catalog's tarball URL is fetched, the
 * tarball is checked against the catalog's integrity and signature, then handed to the
 * {@link BundleInstaller} (spec 2.18, 4.6).
 */
public final class HubInstall {
    private final ConnectorHub hub;
    private final BundleInstaller installer;

    public HubInstall(ConnectorHub hub, BundleInstaller installer) {
        this.hub = Objects.requireNonNull(hub, "hub");
        this.installer = Objects.requireNonNull(installer, "installer");
    }

    /**
     * @param version an exact version, or empty for the catalog's latest
     * @param downgrade whether a version older than the installed one may replace it
     */
    public InstallOutcome install(String name, Optional<String> version, InstallChecks checks, DowngradePolicy downgrade) {
        HubCatalog catalog;
        try {
            catalog = hub.catalog();
        } catch (HubUnavailableException e) {
            return new InstallOutcome.Refused(InstallOutcome.Kind.HUB_UNAVAILABLE, e.getMessage());
        }
        Optional<HubEntry> entry = catalog.find(name);
        if (entry.isEmpty()) {
            return new InstallOutcome.Refused(InstallOutcome.Kind.NOT_IN_CATALOG,
                    "the hub catalog has no connector '" + name + "'; list the catalog to see what it offers");
        }
        Optional<HubRelease> release = version.isPresent() ? entry.get().release(version.get()) : entry.get().latestRelease();
        if (release.isEmpty()) {
            return new InstallOutcome.Refused(InstallOutcome.Kind.NOT_IN_CATALOG, "the hub catalog has no version '"
                    + version.orElse(entry.get().latest()) + "' of '" + name + "'; it offers "
                    + entry.get().releases().stream().map(HubRelease::version).toList());
        }
        byte[] tarball;
        try {
            tarball = hub.fetchBundle(release.get());
        } catch (HubUnavailableException e) {
            return new InstallOutcome.Refused(InstallOutcome.Kind.HUB_UNAVAILABLE, e.getMessage());
        } catch (BundleRejectedException e) {
            return new InstallOutcome.Refused(InstallOutcome.Kind.VERIFICATION_FAILED, e.getMessage());
        }
        return installer.install(tarball, Optional.of(new BundleInstaller.Expected(name, release.get().version())), checks, downgrade);
    }
}
