package dev.omcp.ports.ratelimit;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How many requests one credential may send to the agent transport in a sliding window of
 * {@link #WINDOW_MS} (spec 8, "MCP rate"), or that it may send any number.
 *
 * @param requestsPerMinute the requests admitted within any window of 60 s; empty when the limit is
 *     disabled (every request is admitted, and still counted for the usage snapshot)
 */
public record RateLimit(OptionalInt requestsPerMinute) {
    /** The window every limit counts in: one minute, in milliseconds (spec 8, {@code X-RateLimit-Window-Ms}). */
    public static final long WINDOW_MS = 60_000;
    /** The limit of a credential when nothing else is configured (spec 8). */
    public static final int DEFAULT_PER_MINUTE = 60;

    public RateLimit {
        Objects.requireNonNull(requestsPerMinute, "requestsPerMinute");
        if (requestsPerMinute.isPresent() && requestsPerMinute.getAsInt() < 1) {
            throw new IllegalArgumentException("a rate limit must admit at least 1 request a minute, got "
                    + requestsPerMinute.getAsInt() + "; use RateLimit.disabled() for no limit");
        }
    }

    /**
     * A limit of {@code requests} a minute.
     *
     * @throws IllegalArgumentException when {@code requests} is below 1
     */
    public static RateLimit of(int requests) {
        return new RateLimit(OptionalInt.of(requests));
    }

    /** No limit: every request is admitted (and counted). */
    public static RateLimit disabled() {
        return new RateLimit(OptionalInt.empty());
    }

    /** The limit of spec 8 when nothing is configured: {@value #DEFAULT_PER_MINUTE} requests a minute. */
    public static RateLimit standard() {
        return of(DEFAULT_PER_MINUTE);
    }

    /** Whether every request is admitted. */
    public boolean isDisabled() {
        return requestsPerMinute.isEmpty();
    }

    @Override
    public String toString() {
        return isDisabled() ? "RateLimit[disabled]" : "RateLimit[" + requestsPerMinute.getAsInt() + "/min]";
    }
}
