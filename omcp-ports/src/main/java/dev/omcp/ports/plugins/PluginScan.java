package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Objects;

/**
 * One pass over the plugins directory.
 *
 * @param trustRoot the trust root the signatures were checked against
 * @param candidates every plugin directory found (and every pinned one, found or not), sorted by
 *     location
 * @param directoryPresent whether the plugins directory exists; a missing directory means no
 *     filesystem plugins, not an error (spec 5.8)
 */
public record PluginScan(TrustRoot trustRoot, List<PluginCandidate> candidates, boolean directoryPresent) {
    public PluginScan {
        Objects.requireNonNull(trustRoot, "trustRoot");
        candidates = List.copyOf(candidates);
    }
}
