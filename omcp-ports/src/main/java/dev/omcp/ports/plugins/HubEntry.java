package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One connector in the hub catalog: its per-connector catalog file (spec 2.18).
 *
 * @param name the connector name
 * @param displayName human-readable name
 * @param description what it connects to
 * @param latest the version {@code install} picks when none is named
 * @param releases every published version, newest first
 */
public record HubEntry(String name, String displayName, String description, String latest, List<HubRelease> releases) {
    public HubEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(latest, "latest");
        releases = List.copyOf(releases);
    }

    /** The release of {@code version}. */
    public Optional<HubRelease> release(String version) {
        return releases.stream().filter(r -> r.version().equals(version)).findFirst();
    }

    /** The latest release. */
    public Optional<HubRelease> latestRelease() {
        return release(latest);
    }
}
