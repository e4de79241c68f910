package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The hub catalog merged with what is installed, for {@code GET /api/hub/catalog} and
 * {@code omcp plugin list}.
 *
 * @param source where the catalog was read from
 * @param entries one per catalog connector, sorted by name
 */
public record HubListing(String source, List<Item> entries) {
    public HubListing {
        Objects.requireNonNull(source, "source");
        entries = List.copyOf(entries);
    }

    /**
     * One catalog connector.
     *
     * @param entry the catalog entry
     * @param installedVersion the version installed in the plugins directory, if any
     * @param loaded whether the installed plugin is loaded right now
     */
    public record Item(HubEntry entry, Optional<String> installedVersion, boolean loaded) {
        public Item {
            Objects.requireNonNull(entry, "entry");
            Objects.requireNonNull(installedVersion, "installedVersion");
        }

        /** Whether the catalog's latest version differs from the installed one. */
        public boolean updateAvailable() {
            return installedVersion.isPresent() && !installedVersion.get().equals(entry.latest());
        }
    }
}
