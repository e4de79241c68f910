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

    /** Too many password verifications are running or queued; try again shortly. */
    record Busy(Duration retryAfter) implements LoginResult {
        public Busy {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }
}
