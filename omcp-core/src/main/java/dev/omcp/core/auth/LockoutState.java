package dev.omcp.core.auth;

import dev.omcp.ports.auth.FailureOutcome;
import dev.omcp.ports.auth.LockoutPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The lockout state of one account and its one transition, a failed login (spec 3.3). Pure: the
 * in-memory store applies it under a per-account lock, and the Redis store runs the same rule as
 * a Lua script (the shared contract test keeps the two equal).
 *
 * @param failures failed logins counted in the window, oldest first
 * @param level how many locks this streak has had
 * @param lockedUntil end of the current or last lock; {@link Instant#EPOCH} when never locked
 * @param lastActivity the later of the last failure and the end of the last lock
 */
public record LockoutState(List<Instant> failures, int level, Instant lockedUntil, Instant lastActivity) {
    /** The state of an account nothing is known about. */
    public static final LockoutState CLEAN = new LockoutState(List.of(), 0, Instant.EPOCH, Instant.EPOCH);

    public LockoutState {
        failures = List.copyOf(failures);
    }

    /** Whether the account is locked at {@code now}. */
    public boolean lockedAt(Instant now) {
        return lockedUntil.isAfter(now);
    }

    /** Whether nothing of this state can matter any more at {@code now}. */
    public boolean staleAt(Instant now, LockoutPolicy policy) {
        return !lockedAt(now) && !lastActivity.plus(policy.streakMemory()).isAfter(now)
                && failures.stream().noneMatch(f -> f.isAfter(now.minus(policy.window())));
    }

    /** The state after a failed login at {@code now}, and what the caller learns. */
    public Transition afterFailure(Instant now, LockoutPolicy policy) {
        if (lockedAt(now)) {
            // Concurrent attempts may pass the lock check just before a lock is set: they neither
            // count nor extend the lock.
            return new Transition(this, new FailureOutcome(0, Optional.of(lockedUntil)));
        }
        int currentLevel = lastActivity.plus(policy.streakMemory()).isAfter(now) ? level : 0;
        Instant windowStart = now.minus(policy.window());
        List<Instant> counted = new ArrayList<>();
        for (Instant failure : failures) {
            if (failure.isAfter(windowStart)) {
                counted.add(failure);
            }
        }
        counted.add(now);
        if (counted.size() >= policy.maxFailures()) {
            int nextLevel = currentLevel + 1;
            Instant until = now.plus(policy.lockDuration(nextLevel));
            return new Transition(
                    new LockoutState(List.of(), nextLevel, until, until),
                    new FailureOutcome(counted.size(), Optional.of(until)));
        }
        return new Transition(
                new LockoutState(counted, currentLevel, lockedUntil, now),
                new FailureOutcome(counted.size(), Optional.empty()));
    }

    /** A new state and the outcome reported for the failure that produced it. */
    public record Transition(LockoutState state, FailureOutcome outcome) {}
}
