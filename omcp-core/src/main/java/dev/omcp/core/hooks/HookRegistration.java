package dev.omcp.core.hooks;

import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.hook.HookKind;
import java.util.Objects;

/**
 * One registered hook.
 *
 * @param plugin the plugin (connector name) it belongs to
 * @param kind when it fires
 * @param priority lower runs earlier (spec 6.1 rule 4; default 100)
 * @param mode what its failure means, unless {@code OMCP_HOOK_MODE} overrides it
 * @param hook the handler
 */
public record HookRegistration(String plugin, HookKind kind, int priority, HookMode mode, Hook hook) {
    public HookRegistration {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(hook, "hook");
    }

    /** {@code plugin/kind}, for logs and messages. */
    public String label() {
        return plugin + "/" + kind.wireName();
    }
}
