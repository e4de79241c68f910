package dev.omcp.ports.auth;

import java.util.List;
import java.util.Objects;

/**
 * One entry of the users file (spec 2.5).
 *
 * @param username login name, unique in the file
 * @param name display name; the username when the file has none
 * @param roles role names, for example {@code viewer}
 * @param passwordHash the scrypt hash of the password
 * @param tenant tenant the user is scoped to; empty string when none
 */
public record LocalUser(String username, String name, List<String> roles, PasswordHash passwordHash, String tenant) {
    public LocalUser {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(passwordHash, "passwordHash");
        Objects.requireNonNull(tenant, "tenant");
        roles = List.copyOf(roles);
        if (username.isBlank()) {
            throw new IllegalArgumentException("username must not be blank");
        }
    }
}
