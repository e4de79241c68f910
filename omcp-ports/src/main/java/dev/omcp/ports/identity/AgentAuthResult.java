package dev.omcp.ports.identity;

import java.util.Objects;

/** Outcome of {@link AgentAuthentication#authenticate}. */
public sealed interface AgentAuthResult {

    /** The token was accepted (or none was needed). */
    record Authenticated(Principal principal) implements AgentAuthResult {
        public Authenticated {
            Objects.requireNonNull(principal, "principal");
        }
    }

    /**
     * The request is refused.
     *
     * @param reason a message safe to show the caller; never contains the presented token
     */
    record Refused(String reason) implements AgentAuthResult {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
