package dev.omcp.ports.settings;

import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

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
    default SettingsChange change(JsonObject requested, Principal caller) {
        return change(requested, caller, Optional.empty());
    }

    /**
     * Like {@link #change(JsonObject, Principal)}, only when the {@code changeable} part as it reads
     * when the change is made has one of {@code ifVersionIn}'s {@link #versionOf versions}, else
     * {@link SettingsChange.Stale}; empty applies the change whatever was changed since the caller read.
     */
    SettingsChange change(JsonObject requested, Principal caller, Optional<Set<String>> ifVersionIn);

    /** The health thresholds in force, every signal written out (as {@link #replaceHealthThresholds} accepts it back). */
    JsonObject healthThresholds();

    /** Whether a change made now survives a restart (it is written to the sources file). */
    boolean persistent();

    /**
     * Replaces the health thresholds: {@code thresholds} overrides the shipped defaults per signal,
     * so an empty object restores them. When changes persist they are written first, and nothing
     * changes if that fails.
     */
    default SettingsChange replaceHealthThresholds(JsonObject thresholds, Principal caller) {
        return replaceHealthThresholds(thresholds, caller, Optional.empty());
    }

    /**
     * Like {@link #replaceHealthThresholds(JsonObject, Principal)}, only when the thresholds in force
     * when the change is made have one of {@code ifVersionIn}'s {@link #versionOf versions}, else
     * {@link SettingsChange.Stale}: two operators who read the same thresholds cannot overwrite each
     * other's change unseen. Empty replaces them whatever was changed since the caller read.
     */
    SettingsChange replaceHealthThresholds(JsonObject thresholds, Principal caller, Optional<Set<String>> ifVersionIn);

    /**
     * The version of a value this port answers ({@link #healthThresholds()}, the {@code changeable}
     * part of {@link #view}): equal values have equal versions, and any change makes another one,
     * so it survives a restart and needs no counter. 32 lower-case hex digits.
     */
    static String versionOf(JsonObject value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
