package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link AccountLocks#recordFailure} did.
 *
 * @param failuresInWindow failures counted in the window after this one (0 when the account was
 *     already locked and the failure was not counted)
 * @param lockedUntil when the account is locked, until when; empty when it is not
 */
public record FailureOutcome(int failuresInWindow, Optional<Instant> lockedUntil) {
    public FailureOutcome {
        Objects.requireNonNull(lockedUntil, "lockedUntil");
    }
}
