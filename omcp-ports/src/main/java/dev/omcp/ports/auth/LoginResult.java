package dev.omcp.ports.auth;

import java.time.Duration;
import java.util.Objects;

/** The outcome of a password login (spec 3.3, 5.2, 7.4). */
public sealed interface LoginResult {

    /** Credentials valid: a session was opened. */
    record LoggedIn(SessionClaims session) implements LoginResult {
        public LoggedIn {
            Objects.requireNonNull(session, "session");
        }
    }

    /** Unknown user or wrong password; the two are indistinguishable on purpose. */
    record InvalidCredentials() implements LoginResult {}

    /**
     * The password was right, but the identity provider deprovisioned this user (SCIM, spec 5.6).
     * Answered to the client exactly as {@link InvalidCredentials}: it tells no more than a wrong
     * password does; {@code reason} is for the audit and the log only.
     */
    record Deprovisioned(String reason) implements LoginResult {
        public Deprovisioned {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The account is locked (or this failure locked it). Identical whether or not the account
     * exists.
     */
    record AccountLocked(Duration retryAfter) implements LoginResult {
        public AccountLocked {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    /** More than 20 login attempts from this client address in the current minute. */
    record TooManyAttempts(Duration retryAfter) implements LoginResult {
        public TooManyAttempts {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    /**
     * The per-address login counter holds as many addresses as it may ({@code capacity}), all
     * counted within the current minute, and this address is not among them: refused (failing
     * closed) until windows end. Distinct from {@link TooManyAttempts} because it means many
     * addresses (a spray, or a proxy trusted too far), not one client over its limit.
     */
    record AddressTableFull(Duration retryAfter, int capacity) implements LoginResult {
        public AddressTableFull {
            Objects.requireNonNull(retryAfter, "retryAfter");
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be positive, got " + capacity);
            }
        }
    }

    /** Too many password verifications are running or queued; try again shortly. */
    record Busy(Duration retryAfter) implements LoginResult {
        public Busy {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }
}
