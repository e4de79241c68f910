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
}
