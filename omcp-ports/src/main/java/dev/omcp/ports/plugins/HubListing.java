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
     * @param updateAvailable whether the catalog's latest version is newer than the installed one (by semantic-version
     *     precedence: an installed build newer than the catalog's is no update, and installing "latest" would be a
     *     refused downgrade)
     */
    public record Item(HubEntry entry, Optional<String> installedVersion, boolean loaded, boolean updateAvailable) {
        public Item {
            Objects.requireNonNull(entry, "entry");
            Objects.requireNonNull(installedVersion, "installedVersion");
            if (updateAvailable && installedVersion.isEmpty()) {
                throw new IllegalArgumentException("an update is available only for an installed connector");
            }
        }
    }
}
