package dev.omcp.ports.auth;

import java.util.List;
import java.util.Objects;

/**
 * Whom a new session is for: a local user after a password login, or a person an OpenID provider
 * vouched for.
 *
 * @param sub stable subject identifier (the username, or the provider's {@code sub})
 * @param name display name
 * @param roles role names held
 * @param tenant tenant; empty string when none
 */
public record SessionSubject(String sub, String name, List<String> roles, String tenant) {
    public SessionSubject {
        Objects.requireNonNull(sub, "sub");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tenant, "tenant");
        roles = List.copyOf(roles);
        if (sub.isBlank() || sub.length() > 256) {
            throw new IllegalArgumentException("session subject must be 1-256 characters");
        }
    }
}
