package dev.omcp.ports.auth;

import java.time.Duration;
import java.util.Objects;

/**
 * The account lockout rule (spec 3.3, 5.2, 8): {@code maxFailures} failed logins inside a sliding
 * {@code window} lock the account for {@code baseLock}; each further lock of the same streak lasts
 * twice as long as the one before, capped at {@code maxLock}. A successful login clears the
 * streak; so does a quiet period of {@code streakMemory} without failures.
 *
 * @param maxFailures failures that lock the account, at least 1
 * @param window the sliding window failures are counted in
 * @param baseLock length of the first lock
 * @param maxLock cap of one lock
 * @param streakMemory how long the doubling streak is remembered without new failures
 */
public record LockoutPolicy(int maxFailures, Duration window, Duration baseLock, Duration maxLock, Duration streakMemory) {
    /** Spec 8: 5 failures, 900 s window, 60 s first lock doubling to a 3600 s cap. */
    public static final LockoutPolicy DEFAULT = new LockoutPolicy(
            5, Duration.ofSeconds(900), Duration.ofSeconds(60), Duration.ofSeconds(3600), Duration.ofHours(24));

    public LockoutPolicy {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(baseLock, "baseLock");
        Objects.requireNonNull(maxLock, "maxLock");
        Objects.requireNonNull(streakMemory, "streakMemory");
        if (maxFailures < 1) {
            throw new IllegalArgumentException("maxFailures must be at least 1, got " + maxFailures);
        }
        if (window.toMillis() < 1000 || baseLock.toMillis() < 1000 || maxLock.toMillis() < 1000) {
            throw new IllegalArgumentException("window, baseLock and maxLock must each be at least one second");
        }
        if (maxLock.compareTo(baseLock) < 0) {
            throw new IllegalArgumentException("maxLock (" + maxLock.toSeconds() + " s) must not be shorter than baseLock ("
                    + baseLock.toSeconds() + " s)");
        }
        if (streakMemory.compareTo(window) < 0) {
            throw new IllegalArgumentException("streakMemory must not be shorter than the window");
        }
    }

    /**
     * How long the {@code level}-th lock of a streak lasts (level 1 is the first lock):
     * {@code min(baseLock * 2^(level-1), maxLock)}.
     */
    public Duration lockDuration(int level) {
        if (level < 1) {
            throw new IllegalArgumentException("level starts at 1");
        }
        long base = baseLock.toMillis();
        long cap = maxLock.toMillis();
        long millis = base;
        for (int i = 1; i < level && millis < cap; i++) {
            millis *= 2;
        }
        return Duration.ofMillis(Math.min(millis, cap));
    }
}
