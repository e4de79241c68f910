package dev.omcp.sdk.manifest;

import dev.omcp.sdk.hook.HookKind;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the manifest's {@code hooks} array (spec 2.4).
 *
 * @param kind when the hook fires
 * @param module the class implementing {@link dev.omcp.sdk.hook.Hook}, given as a path relative to
 *     the plugin root, where the classes of the plugin's JAR live (for example
 *     {@code com/acme/AuditHook.class}), or as a class name ({@code com.acme.AuditHook}); a path
 *     escaping the root is refused
 * @param priority lower runs earlier; 100 by default
 * @param mode what a throwing hook means: {@code enforce} (default), {@code permissive} or
 *     {@code disabled}
 */
public record HookEntry(HookKind kind, String module, int priority, Optional<String> mode) {
    /** The priority of a hook entry that names none. */
    public static final int DEFAULT_PRIORITY = 100;

    public HookEntry {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(mode, "mode");
    }
}
