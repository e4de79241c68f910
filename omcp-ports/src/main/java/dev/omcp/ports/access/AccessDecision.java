package dev.omcp.ports.access;

import java.util.List;
import java.util.Objects;

/** The verdict on one permission check (spec 5.5, 7.1). */
public sealed interface AccessDecision {

    /** The caller holds the permission. */
    record Allowed() implements AccessDecision {}

    /**
     * The caller lacks the permission: answered with 403 {@code OMCP_PERMISSION_DENIED}.
     *
     * @param required the permission the route needs
     * @param have the permissions the caller holds
     */
    record Denied(Permission required, List<Permission> have) implements AccessDecision {
        public Denied {
            Objects.requireNonNull(required, "required");
            have = List.copyOf(have);
        }
    }

    /**
     * The policy engine could not decide (for example OPA unreachable). The request is refused:
     * access control fails closed.
     *
     * @param reason what failed, without addresses or secrets
     */
    record Unavailable(String reason) implements AccessDecision {
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
