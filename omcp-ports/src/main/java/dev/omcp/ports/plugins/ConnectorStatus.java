package dev.omcp.ports.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.sdk.manifest.ConnectorManifest;
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
 * @param reason why it is not loaded; empty when loaded
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
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(manifest, "manifest");
        hooks = List.copyOf(hooks);
    }

    /**
     * One hook entry of a plugin.
     *
     * @param kind the hook kind's wire name
     * @param module the module as the manifest names it
     * @param priority lower runs earlier
     * @param mode the effective failure mode
     * @param registered whether it is registered; when not, {@code reason} says why
     * @param reason why it was skipped; empty when registered
     */
    public record HookStatus(String kind, String module, int priority, String mode, boolean registered, String reason) {
        public HookStatus {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(module, "module");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
