package dev.omcp.ports.plugins;

import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.manifest.HookEntry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A plugin whose classes were defined in its own class loader.
 *
 * @param candidate what was checked before loading
 * @param factory the factory registered in the JAR's {@code META-INF/services}
 * @param hooks the hooks that register and run: at most one of each kind
 * @param skippedHooks the manifest hook entries that do not run: their module escapes the plugin
 *     root, is missing or is not a hook, or a later entry of the same kind replaced them; a skipped
 *     hook never fails the load (spec 6.1 rule 5)
 */
public record LoadedPlugin(PluginCandidate candidate, ConnectorFactory factory, List<LoadedHook> hooks, List<SkippedHook> skippedHooks) {
    public LoadedPlugin {
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(factory, "factory");
        hooks = List.copyOf(hooks);
        skippedHooks = List.copyOf(skippedHooks);
        Set<HookKind> kinds = EnumSet.noneOf(HookKind.class);
        for (LoadedHook hook : hooks) {
            if (!kinds.add(hook.entry().kind())) {
                // a second hook of a kind would be listed as running while the registry keeps only one
                throw new IllegalArgumentException("two hooks of kind " + hook.entry().kind().wireName()
                        + " would run for plugin '" + candidate.name() + "': build it with LoadedPlugin.of, which keeps the later one");
            }
        }
    }

    /**
     * The plugin with the hooks {@code created} from its manifest entries, in manifest order, under
     * spec 6.1 rule 5 (registering the same plugin and kind again replaces the earlier hook): of
     * several created hooks of one kind only the last runs, and each earlier one is reported skipped
     * as replaced, so what the gateway shows is what runs.
     *
     * @param unusable the entries whose module could not be made a hook
     */
    public static LoadedPlugin of(PluginCandidate candidate, ConnectorFactory factory, List<LoadedHook> created,
            List<SkippedHook> unusable) {
        Map<HookKind, LoadedHook> last = new EnumMap<>(HookKind.class);
        created.forEach(hook -> last.put(hook.entry().kind(), hook));
        List<LoadedHook> running = new ArrayList<>();
        List<SkippedHook> skipped = new ArrayList<>(unusable);
        for (LoadedHook hook : created) {
            LoadedHook winner = last.get(hook.entry().kind());
            if (winner == hook) {
                running.add(hook);
            } else {
                skipped.add(new SkippedHook(hook.entry(), replacedReason(winner.entry())));
            }
        }
        return new LoadedPlugin(candidate, factory, running, skipped);
    }

    private static String replacedReason(HookEntry later) {
        return "replaced by module '" + later.module() + "' (a " + later.kind().wireName()
                + " hook registered later in the manifest; a plugin runs one hook of each kind)";
    }

    /**
     * A hook entry that does not run.
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
