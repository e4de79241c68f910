package dev.omcp.ports.access;

import java.util.Objects;

/** An external policy engine's answer. */
public sealed interface ExternalDecision {

    /** The engine allowed it. */
    record Allow() implements ExternalDecision {}

    /** The engine denied it, or its answer was not an explicit allow. */
    record Deny() implements ExternalDecision {}

    /**
     * No decision: the engine was unreachable, too slow or answered something unusable.
     *
     * @param reason what failed, without the engine's address
     */
    record Unavailable(String reason) implements ExternalDecision {
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
