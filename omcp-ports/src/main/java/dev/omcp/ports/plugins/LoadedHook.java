package dev.omcp.ports.plugins;

import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.manifest.HookEntry;
import java.util.Objects;

/**
 * A hook of a loaded plugin: its manifest entry and the instance created from the plugin's JAR.
 *
 * @param entry the manifest entry (kind, module, priority, mode)
 * @param hook the instance; called from many threads
 */
public record LoadedHook(HookEntry entry, Hook hook) {
    public LoadedHook {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(hook, "hook");
    }
}
