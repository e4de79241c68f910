package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.PluginCandidate;
import java.util.List;
import java.util.Objects;

/**
 * What an install asks of the plugins that are live: before its commit, whether a re-scan with the
 * new bundle would be accepted; after it, whether the plugin really loaded. A running gateway
 * answers both ({@link ConnectorManagement}); {@code omcp plugin install}, which writes into a
 * directory the next start reads, asks nothing ({@link #none()}).
 */
public interface InstallChecks {

    /**
     * What strict mode would say about the plugins directory with {@code staged} installed under
     * its name; empty when a re-scan would be accepted.
     */
    List<String> refusalsWith(PluginCandidate staged);

    /** Re-scans the plugins directory, and says whether the plugin named {@code name} loaded. */
    Rescanned rescan(String name);

    /**
     * Whether a re-scan loads plugins into a running gateway; when not, a plugin that is not
     * loaded after the commit is simply installed for the next start, not taken back.
     */
    default boolean live() {
        return true;
    }

    /**
     * After a re-scan: whether the plugin loaded, and if not why.
     *
     * @param detail a short confirmation, or why it did not load (safe to show)
     */
    record Rescanned(boolean loaded, String detail) {
        public Rescanned {
            Objects.requireNonNull(detail, "detail");
        }
    }

    /** No live plugins to ask: nothing refuses the commit, and nothing is loaded after it. */
    static InstallChecks none() {
        return new InstallChecks() {
            @Override
            public List<String> refusalsWith(PluginCandidate staged) {
                return List.of();
            }

            @Override
            public Rescanned rescan(String name) {
                return new Rescanned(false, "installed; it loads at the next start of the gateway");
            }

            @Override
            public boolean live() {
                return false;
            }
        };
    }
}
