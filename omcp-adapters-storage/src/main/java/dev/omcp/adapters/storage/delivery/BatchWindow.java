package dev.omcp.adapters.storage.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a batch is sent: as soon as it holds {@code maxCount} records, or {@code maxAge} after its
 * first record arrived, whichever comes first.
 *
 * @param maxCount records per batch
 * @param maxAge how long the first record of a batch may wait
 */
public record BatchWindow(int maxCount, Duration maxAge) {
    public BatchWindow {
        Objects.requireNonNull(maxAge, "maxAge");
        if (maxCount < 1) {
            throw new IllegalArgumentException("a batch holds at least 1 record");
        }
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge must not be negative");
        }
    }

    /** Whether a batch of {@code count} records is full. */
    public boolean full(int count) {
        return count >= maxCount;
    }

    /** How much longer a batch whose first record arrived at {@code opened} may wait at {@code now}; zero when due. */
    public Duration remaining(Instant opened, Instant now) {
        Duration waited = Duration.between(opened, now);
        return waited.compareTo(maxAge) >= 0 ? Duration.ZERO : maxAge.minus(waited);
    }
}
