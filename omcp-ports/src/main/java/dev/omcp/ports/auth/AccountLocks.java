package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.Optional;

/**
 * Driven port: the per-account lockout state of spec 3.3, in memory (one process) or in a shared
 * store (every replica counts one streak).
 *
 * <p>Each method is atomic for its account: concurrent failures through several replicas are
 * counted once each and lock the account once. The time is always the caller's ({@code now}), so
 * replicas must keep their clocks in sync (NTP) and tests can use a manual clock.
 *
 * <p>Contract, identical for every implementation (a shared contract test checks it):
 * <ul>
 *   <li>{@link #lockedUntil}: the end of the current lock when it is after {@code now}.</li>
 *   <li>{@link #recordFailure}: when the account is locked at {@code now}, nothing changes and the
 *     current lock is returned. Otherwise failures at or before {@code now - window} are dropped,
 *     this failure is added, and when the count reaches {@code maxFailures} the streak level rises
 *     by one, the account is locked until {@code now + policy.lockDuration(level)} and the counted
 *     failures are cleared. The level is forgotten after {@code streakMemory} without failures
 *     (counted from the end of the last lock).</li>
 *   <li>{@link #clear}: forgets failures, lock and level (a successful login).</li>
 * </ul>
 * The login service counts every attempt with {@link #recordFailure} <em>before</em> it verifies
 * the password and clears on success: the lock check and the count are then one atomic step, so
 * attempts sent at once cannot all pass the check before the first failures are counted.
 * Account names are opaque strings of at most 256 characters; unknown usernames are tracked like
 * known ones so a lock looks the same whether or not the account exists.
 *
 * <p>A shared store that cannot be reached throws {@link SharedStateUnavailableException}, never
 * "not locked".
 */
public interface AccountLocks {

    /** When the account is locked at {@code now}, the end of the lock. */
    Optional<Instant> lockedUntil(String account, Instant now);

    /**
     * Counts one failed login of {@code account} at {@code now}, or reports the current lock without
     * counting ({@link FailureOutcome#failuresInWindow()} 0) when the account is locked at {@code now}.
     */
    FailureOutcome recordFailure(String account, Instant now, LockoutPolicy policy);

    /** Clears failures, lock and streak of {@code account}. */
    void clear(String account);
}
