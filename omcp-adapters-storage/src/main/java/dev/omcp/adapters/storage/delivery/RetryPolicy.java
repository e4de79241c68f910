package dev.omcp.adapters.storage.delivery;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How often and how patiently a sink retries: exponential backoff with "equal jitter" (half the
 * delay fixed, half random), so retries of many gateways spread out but still back off.
 *
 * @param maxAttempts attempts in all, including the first
 * @param baseDelay the delay before the second attempt, before jitter
 * @param maxDelay the cap of any one delay
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {
    public RetryPolicy {
        Objects.requireNonNull(baseDelay, "baseDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (baseDelay.isNegative() || baseDelay.isZero() || maxDelay.compareTo(baseDelay) < 0) {
            throw new IllegalArgumentException("delays must be positive and maxDelay at least baseDelay");
        }
    }

    /** 8 attempts, 1 s doubling to at most 60 s: about 2 minutes before a batch is dead-lettered. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(8, Duration.ofSeconds(1), Duration.ofSeconds(60));
    }

    /**
     * The pause before attempt {@code attempt} (2 for the first retry): between half and all of
     * {@code min(maxDelay, baseDelay × 2^(attempt-2))}.
     */
    public Duration delayBefore(int attempt, RandomGenerator random) {
        if (attempt < 2) {
            throw new IllegalArgumentException("the first attempt has no delay");
        }
        long base = baseDelay.toMillis();
        int doublings = Math.min(attempt - 2, 40);
        long ceiling = base > Long.MAX_VALUE >> doublings ? maxDelay.toMillis() : Math.min(maxDelay.toMillis(), base << doublings);
        long half = ceiling / 2;
        return Duration.ofMillis(ceiling - half + random.nextLong(half + 1));
    }
}
