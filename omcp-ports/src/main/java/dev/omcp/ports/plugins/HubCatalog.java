package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The hub catalog: the aggregated index with every connector's catalog file resolved.
 *
 * @param source where it was read from, for messages (a directory or URL without credentials)
 * @param entries the connectors, sorted by name
 */
public record HubCatalog(String source, List<HubEntry> entries) {
    public HubCatalog {
        Objects.requireNonNull(source, "source");
        entries = List.copyOf(entries);
    }

    /** The connector named {@code name}. */
    public Optional<HubEntry> find(String name) {
        return entries.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
