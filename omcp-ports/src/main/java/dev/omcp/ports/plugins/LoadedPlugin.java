package dev.omcp.ports.plugins;

import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.manifest.HookEntry;
import java.util.List;
import java.util.Objects;

/**
 * A plugin whose classes were defined in its own class loader.
 *
 * @param candidate what was checked before loading
 * @param factory the factory registered in the JAR's {@code META-INF/services}
 * @param hooks the hooks that could be created
 * @param skippedHooks the manifest hook entries that were skipped (module escaping the plugin root,
 *     missing, or not a hook); a skipped hook never fails the load (spec 6.1 rule 5)
 */
public record LoadedPlugin(PluginCandidate candidate, ConnectorFactory factory, List<LoadedHook> hooks, List<SkippedHook> skippedHooks) {
    public LoadedPlugin {
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(factory, "factory");
        hooks = List.copyOf(hooks);
        skippedHooks = List.copyOf(skippedHooks);
    }

    /**
     * A hook entry that could not be registered.
     *
     * @param entry the manifest entry
     * @param reason why, for the log and the management API
     */
    public record SkippedHook(HookEntry entry, String reason) {
        public SkippedHook {
            Objects.requireNonNull(entry, "entry");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
