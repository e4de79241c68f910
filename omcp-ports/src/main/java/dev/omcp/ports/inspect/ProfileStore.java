package dev.omcp.ports.inspect;

import java.util.List;

/**
 * Driven port: where the Inspect profile is kept ({@code OMCP_INSPECT_PROFILE_FILE}, YAML or JSON; memory
 * when unset). Implementations are thread-safe; the core calls {@link #save} under its own lock.
 */
public interface ProfileStore {

    /**
     * The rules kept, read at start.
     *
     * @throws ProfileStoreException when the store cannot be read or holds an invalid profile; the
     *     message names the place (file, line) and what is wrong
     */
    List<Rule> load();

    /**
     * Replaces the kept rules with {@code rules}, all or nothing (a crash leaves the old or the new
     * profile, never a mix).
     *
     * @throws ProfileStoreException when they could not be kept; the store then still holds the old rules
     */
    void save(List<Rule> rules);

    /** Where the rules are kept, for the operator: {@code memory} or {@code file}. */
    String storage();

    /** A profile that could not be read or kept. The message is for the operator and holds no secret. */
    final class ProfileStoreException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public ProfileStoreException(String message) {
            super(message);
        }

        public ProfileStoreException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
