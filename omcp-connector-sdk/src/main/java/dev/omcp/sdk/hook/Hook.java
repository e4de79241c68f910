package dev.omcp.sdk.hook;

import jakarta.json.JsonObject;

/**
 * A lifecycle hook shipped in a connector plugin (spec 6.1).
 *
 * <p>A plugin names the implementing class in its manifest's {@code hooks[].module}; the class needs
 * a public no-argument constructor. The gateway calls {@link #handle} on a thread of its own with a
 * per-hook timeout (5 s by default), after which it interrupts the thread; a hook that throws or
 * times out is treated according to its mode ({@code enforce}, {@code permissive} or
 * {@code disabled}). A hook should stop when interrupted: one with 8 calls still running past the
 * timeout is not started again until one of them ends. Implementations must be thread-safe: one
 * instance serves every call.
 *
 * <p>What the hook hands back is read on that thread, within the timeout: a returned payload is
 * copied into the gateway's own JSON values (at most 16777216 characters and 1000 levels deep, or
 * the hook counts as failing), so changing it afterwards has no effect; a thrown exception's message
 * is read there too. Hooks of equal priority run in the order of their plugins' names.
 */
@FunctionalInterface
public interface Hook {
    /**
     * Inspects, rewrites or refuses one call.
     *
     * @param context who calls what, and at which hook point
     * @param payload the current payload; its shape depends on {@link HookContext#kind()}
     * @return the verdict; never {@code null}
     * @throws Exception when the hook fails; the gateway applies the hook's failure mode
     */
    HookResult handle(HookContext context, JsonObject payload) throws Exception;
}
