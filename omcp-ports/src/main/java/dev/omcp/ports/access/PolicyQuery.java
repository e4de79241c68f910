package dev.omcp.ports.access;

import dev.omcp.ports.identity.Principal;
import java.util.Objects;

/**
 * One question to an external policy engine: may {@code subject} do {@code permission}?
 *
 * @param subject the caller
 * @param permission the permission asked for
 */
public record PolicyQuery(Principal subject, Permission permission) {
    public PolicyQuery {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(permission, "permission");
    }
}
