package dev.omcp.core.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubEntry;
import dev.omcp.ports.plugins.HubListing;
import dev.omcp.ports.plugins.PluginCandidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Merges the hub catalog with what is installed and loaded. */
public final class HubListings {
    private HubListings() {}

    /** For the gateway: installed state from the live statuses. */
    public static HubListing fromStatuses(HubCatalog catalog, List<ConnectorStatus> statuses) {
        List<HubListing.Item> items = new ArrayList<>();
        for (HubEntry entry : catalog.entries()) {
            Optional<ConnectorStatus> installed = statuses.stream()
                    .filter(s -> s.origin() == ConnectorType.Origin.FILESYSTEM && s.location().equals(entry.name()))
                    .findFirst();
            Optional<String> version = installed.flatMap(ConnectorStatus::manifest).map(m -> m.version());
            boolean loaded = installed.map(s -> s.state() == ConnectorStatus.State.LOADED).orElse(false);
            items.add(new HubListing.Item(entry, version, loaded, newerInCatalog(entry, version)));
        }
        return new HubListing(catalog.source(), items);
    }

    /** For the CLI, where nothing is loaded: installed state from a scan. */
    public static HubListing fromScan(HubCatalog catalog, List<PluginCandidate> scanned) {
        List<HubListing.Item> items = new ArrayList<>();
        for (HubEntry entry : catalog.entries()) {
            Optional<String> version = scanned.stream()
                    .filter(c -> c.origin() == ConnectorType.Origin.FILESYSTEM && c.location().equals(entry.name()))
                    .findFirst()
                    .flatMap(PluginCandidate::manifest)
                    .map(m -> m.version());
            items.add(new HubListing.Item(entry, version, false, newerInCatalog(entry, version)));
        }
        return new HubListing(catalog.source(), items);
    }

    /**
     * Whether the catalog's latest release is newer than the installed version. A version that is no semantic version
     * (the manifest schema refuses those, so only a hand-edited directory has one) counts as outdated when it differs.
     */
    static boolean newerInCatalog(HubEntry entry, Optional<String> installed) {
        if (installed.isEmpty()) {
            return false;
        }
        Optional<SemanticVersion> latest = SemanticVersion.parse(entry.latest());
        Optional<SemanticVersion> current = SemanticVersion.parse(installed.get());
        if (latest.isEmpty() || current.isEmpty()) {
            return !installed.get().equals(entry.latest());
        }
        return latest.get().compareTo(current.get()) > 0;
    }
}
