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
 * @param name the connector name; for a plugin whose package marker did not read, its directory's name,
 *     kept as {@code location} is
 * @param origin builtin, filesystem or pinned
 * @param location the plugin directory name; empty for builtins. A directory's name is the plugin
 *     author's text (a bundle, a copied directory), so control, format and line-separator characters
 *     are shown as {@code ?} and at most {@link #MAX_LOCATION_CHARS} characters are kept
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
    /** Characters of a name or location kept: more than a directory name or a path given to {@code omcp plugin verify} needs. */
    public static final int MAX_LOCATION_CHARS = 1_000;
    /** Characters of a hook's module kept: the manifest schema's {@code maxLength} for it. */
    public static final int MAX_MODULE_CHARS = 512;

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
        name = named(name, "name", MAX_LOCATION_CHARS);
        Objects.requireNonNull(origin, "origin");
        location = named(location, "location", MAX_LOCATION_CHARS);
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
     * A name the operator looks the plugin up by (a directory, a module path): one line of at most
     * {@code maxChars} characters, an odd character shown as {@code ?} where it is; unlike a
     * reason's URLs nothing is replaced, since an ordinary name must be shown exactly as on disk.
     */
    static String named(String value, String field, int maxChars) {
        return BackendText.quoted(Objects.requireNonNull(value, field), maxChars);
    }

    /**
     * One hook entry of a plugin.
     *
     * @param kind the hook kind's wire name
     * @param module the module as the manifest names it, kept one line of at most {@link #MAX_MODULE_CHARS}
     *     characters as {@code location} is
     * @param priority lower runs earlier
     * @param mode the failure mode in force: {@code OMCP_HOOK_MODE} when set, else {@code manifestMode}
     * @param manifestMode the failure mode the manifest entry declares ({@code enforce} when it names none)
     * @param registered whether it is registered; when not, {@code reason} says why
     * @param reason why it was skipped; empty when registered. Bounded like the connector's reason
     */
    public record HookStatus(String kind, String module, int priority, String mode, String manifestMode, boolean registered,
            String reason) {
        public HookStatus {
            Objects.requireNonNull(kind, "kind");
            module = named(module, "module", MAX_MODULE_CHARS);
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(manifestMode, "manifestMode");
            reason = shown(reason);
        }

        /** A hook whose mode in force is the one its manifest entry declares. */
        public HookStatus(String kind, String module, int priority, String mode, boolean registered, String reason) {
            this(kind, module, priority, mode, mode, registered, reason);
        }
    }
}
