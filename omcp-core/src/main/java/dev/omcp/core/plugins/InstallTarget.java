package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.Optional;

/**
 * Whether the plugins directory's {@code <name>} sub-directory, where an install of a plugin named
 * {@code name} commits, holds something the install may replace: nothing, an earlier install of
 * this plugin, or one whose manifest does not read (a repair). A plugin name may look like a
 * versioned directory ({@code tempo-1.2.0}), so that directory can hold another plugin, the version
 * of {@code tempo} a pin of the sources file loads: replacing it would delete a pinned version,
 * which a removal refuses, and leave the pin naming the wrong plugin.
 */
final class InstallTarget {
    private InstallTarget() {}

    /**
     * Why the install may not replace {@code installed}; empty when it may.
     *
     * @param installed the check of the directory the bundle would take, as a scan reports it
     * @param offered the verified bundle's manifest
     */
    static Optional<String> refusal(Optional<PluginCandidate> installed, ConnectorManifest offered) {
        if (installed.isEmpty()) {
            return Optional.empty();
        }
        PluginCandidate there = installed.get();
        String name = offered.name();
        String removeFirst = " Nothing was written. Install the plugin under a name no directory of the plugins directory has, or, if"
                + " what is there may go, remove it first (`omcp plugin remove " + name + "` or DELETE /api/connectors/" + name
                + "; a pinned version only once its pin is out of the sources file) and install again";
        if (!there.name().equals(name)) {
            String version = there.manifest().map(m -> " " + m.version()).orElse("");
            String versioned = there.manifest().filter(m -> name.equals(there.name() + "-" + m.version())).isPresent()
                    ? ", the versioned directory a pin of " + there.name() + " " + there.manifest().get().version() + " loads"
                    : "";
            return Optional.of("the plugins directory's '" + name + "' holds another plugin, " + there.name() + version + versioned
                    + ", not " + name + ": installing " + name + " would replace it." + removeFirst);
        }
        if (there.manifest().isEmpty() && looksVersioned(name)) {
            return Optional.of("the plugins directory's '" + name + "' holds a plugin whose manifest does not read, under a name of"
                    + " the form <name>-<version> of a versioned directory: it may be a pinned version of another plugin rather than"
                    + " an earlier install of " + name + ", so it is not replaced unseen." + removeFirst);
        }
        return Optional.empty();
    }

    /** Whether {@code name} ends with {@code -<semantic version>}, as the directory of a pinned version does. */
    static boolean looksVersioned(String name) {
        for (int dash = name.indexOf('-'); dash > 0; dash = name.indexOf('-', dash + 1)) {
            String suffix = name.substring(dash + 1);
            if (!suffix.startsWith("v") && SemanticVersion.parse(suffix).isPresent()) {
                return true;
            }
        }
        return false;
    }
}
