package dev.omcp.ports.auth;

import java.util.List;
import java.util.Objects;

/**
 * The signed payload of the {@code omcp_session} cookie (spec 2.6). There is no server-side
 * session table: everything the gateway knows about a session is here, plus the revocation list.
 *
 * @param sub subject
 * @param name display name
 * @param roles role names
 * @param iat issued at, epoch seconds
 * @param exp expires at, epoch seconds
 * @param sid random session id
 * @param tenant tenant; empty string when none (the cookie then carries no {@code tenant})
 */
public record SessionClaims(String sub, String name, List<String> roles, long iat, long exp, String sid, String tenant) {
    public SessionClaims {
        Objects.requireNonNull(sub, "sub");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sid, "sid");
        Objects.requireNonNull(tenant, "tenant");
        roles = List.copyOf(roles);
        if (sub.isBlank() || sid.isBlank()) {
            throw new IllegalArgumentException("a session needs a sub and a sid");
        }
        if (exp <= iat) {
            throw new IllegalArgumentException("a session must expire after it was issued");
        }
    }
}
