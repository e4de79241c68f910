package dev.omcp.ports.auth;

import java.util.Optional;

/**
 * Driven port: the local users of basic mode (spec 2.5, 5.2).
 *
 * <p>The file-backed implementation re-reads its file when the file's modification time changed
 * and keeps the users it had when a re-read fails (spec 5.2 rule 2). Thread-safe.
 */
@FunctionalInterface
public interface UserDirectory {

    /** The user with exactly this username, if any. */
    Optional<LocalUser> find(String username);

    /**
     * The cost most users' password hashes use, as of the last {@link #find}. A login for an unknown
     * username verifies a dummy hash of this cost, so it takes as long as a login for most users and
     * its timing does not tell which names exist. Empty when not known: the minting cost is used.
     */
    default Optional<PasswordHash.Cost> prevailingCost() {
        return Optional.empty();
    }
}
