package dev.omcp.ports.settings;

import jakarta.json.JsonObject;

/**
 * Driven port: where health threshold changes made at run time are kept, so that they survive a
 * restart (the sources file's {@code health: thresholds:} block), or nowhere when no file is in use.
 *
 * <p>{@link #save} must be atomic (a reader sees the old or the new file, never a mix) and must
 * keep every other part of the file, {@code ${VAR}} references included, as it was. Thread-safe.
 */
public interface HealthThresholdsStore {

    /** Whether {@link #save} writes somewhere a restart reads again. */
    boolean persistent();

    /**
     * For messages: where changes are kept ("the sources file sources.yaml"), or why they are kept
     * only in memory. Never a secret or a full path.
     */
    String describe();

    /**
     * Replaces the stored thresholds with {@code overrides} (overrides of the shipped defaults, keyed
     * by signal; an empty object removes the block). Only called when {@link #persistent()}.
     *
     * @throws SettingsStoreException when nothing could be written; the old file is untouched
     */
    void save(JsonObject overrides) throws SettingsStoreException;

    /** A store that keeps nothing: changes last until restart, for {@code reason}. */
    static HealthThresholdsStore memoryOnly(String reason) {
        return new HealthThresholdsStore() {
            @Override
            public boolean persistent() {
                return false;
            }

            @Override
            public String describe() {
                return reason;
            }

            @Override
            public void save(JsonObject overrides) throws SettingsStoreException {
                throw new SettingsStoreException("changes are kept in memory only: " + reason);
            }
        };
    }
}
