package dev.omcp.ports.settings;

import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;

/**
 * Driving port: the settings the management API shows and changes at run time. Implemented by the
 * core.
 *
 * <p>What is shown is chosen, not dumped: values an operator needs to understand the gateway's
 * behaviour, never a secret, a token, a URL or a file path. What may change at run time is the
 * {@code changeable} part; everything else is fixed at start by the environment. Permissions
 * ({@code settings:read}, {@code settings:write}, {@code health:read}, {@code health:write}) are
 * checked by the caller. Thread-safe: a change replaces values atomically, readers see the old or
 * the new ones.
 */
public interface ManageSettings {

    /** The key of the health thresholds inside the {@code changeable} part. */
    String HEALTH_THRESHOLDS = "healthThresholds";

    /**
     * The settings: {@code changeable} (each value as {@link #change} accepts it back),
     * {@code fixed} (set at start, read-only here) and {@code persisted} (whether a change survives
     * a restart).
     */
    JsonObject view(Principal caller);

    /**
     * Applies the members of {@code requested}, each a key of the {@code changeable} part. Nothing
     * changes unless every member is valid and, when changes persist, was written.
     */
    SettingsChange change(JsonObject requested, Principal caller);

    /** The health thresholds in force, every signal written out (as {@link #replaceHealthThresholds} accepts it back). */
    JsonObject healthThresholds();

    /** Whether a change made now survives a restart (it is written to the sources file). */
    boolean persistent();

    /**
     * Replaces the health thresholds: {@code thresholds} overrides the shipped defaults per signal,
     * so an empty object restores them. When changes persist they are written first, and nothing
     * changes if that fails.
     */
    SettingsChange replaceHealthThresholds(JsonObject thresholds, Principal caller);
}
