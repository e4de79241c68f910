package dev.omcp.ports.info;

import java.util.List;
import java.util.Objects;

/**
 * The caller as {@code GET /api/me} describes it (spec 4.2).
 *
 * @param sub subject identifier
 * @param name display name
 * @param sid session id of a cookie session, or {@code null}
 * @param authKind how the caller authenticated, lower case
 * @param tenant tenant, empty when none
 * @param roles roles held
 * @param permissions permissions held, as {@code resource:action}
 */
public record Identity(
        String sub, String name, String sid, String authKind, String tenant, List<String> roles, List<String> permissions) {
    public Identity {
        Objects.requireNonNull(sub, "sub");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(authKind, "authKind");
        Objects.requireNonNull(tenant, "tenant");
        roles = List.copyOf(roles);
        permissions = List.copyOf(permissions);
    }
}
