package dev.omcp.ports.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.text.BackendText;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A connector type the gateway knows, loaded or not, for {@code GET /api/connectors}.
 *
 * @param name the connector name
 * @param origin builtin, filesystem or pinned
 * @param location the plugin directory name; empty for builtins
 * @param state loaded, skipped or shadowed by a connector of higher precedence
 * @param reason why it is not loaded; empty when loaded. It may quote the plugin's own text (its
 *     exception's message), so it is kept one printable line of at most {@link #MAX_REASON_CHARS}
 *     characters
 * @param manifest the manifest, when it could be read
 * @param hooks the hooks it registered, and those that were skipped
 */
public record ConnectorStatus(
        String name,
        ConnectorType.Origin origin,
        String location,
        State state,
        String reason,
        Optional<ConnectorManifest> manifest,
        List<HookStatus> hooks) {
    /**
     * Characters of a reason kept: enough for every check a plugin failed, not a whole stack of a
     * plugin's exception messages.
     */
    public static final int MAX_REASON_CHARS = 2_000;

    /** Whether a connector is in use. */
    public enum State {
        /** Loaded; sources of its type can be served. */
        LOADED,
        /** Not loaded; {@code reason} says why (verification, compatibility, load failure). */
        SKIPPED,
        /** Verified, but a connector of the same name with higher precedence won (spec 5.8). */
        SHADOWED
    }

    public ConnectorStatus {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(state, "state");
        reason = shown(reason);
        Objects.requireNonNull(manifest, "manifest");
        hooks = List.copyOf(hooks);
    }

    /**
     * A reason as the management API shows it: line breaks, terminal escapes and bidi overrides
     * become spaces (they would forge or reorder what the operator reads), URLs become
     * {@code <url>}, and a longer text is cut with an ellipsis.
     */
    static String shown(String reason) {
        return BackendText.clean(Objects.requireNonNull(reason, "reason"), MAX_REASON_CHARS);
    }

    /**
     * One hook entry of a plugin.
     *
     * @param kind the hook kind's wire name
     * @param module the module as the manifest names it
     * @param priority lower runs earlier
     * @param mode the effective failure mode
     * @param registered whether it is registered; when not, {@code reason} says why
     * @param reason why it was skipped; empty when registered. Bounded like the connector's reason
     */
    public record HookStatus(String kind, String module, int priority, String mode, boolean registered, String reason) {
        public HookStatus {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(module, "module");
            Objects.requireNonNull(mode, "mode");
            reason = shown(reason);
        }
    }
}
