package dev.omcp.ports.auth;

import dev.omcp.ports.identity.Principal;
import java.util.Objects;

/** The verdict on a session whose signature was valid (spec 3.4). */
public sealed interface SessionCheck {

    /** The session is valid; the request runs as {@code principal}. */
    record Valid(Principal principal) implements SessionCheck {
        public Valid {
            Objects.requireNonNull(principal, "principal");
        }
    }

    /** {@code exp} has passed. */
    record Expired() implements SessionCheck {}

    /** The session's {@code sid}, or its subject up to its issue time, is on the blocklist. */
    record Revoked() implements SessionCheck {}

    /** The claims cannot be trusted (issued in the future, longer than the lifetime). */
    record Invalid(String reason) implements SessionCheck {
        public Invalid {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
