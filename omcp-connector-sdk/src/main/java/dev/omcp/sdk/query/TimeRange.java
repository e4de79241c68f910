package dev.omcp.sdk.query;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A half-open time window {@code [start, end)}.
 *
 * @param start inclusive start
 * @param end exclusive end; after {@code start}
 */
public record TimeRange(Instant start, Instant end) {
    public TimeRange {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("time range end " + end + " must be after start " + start);
        }
    }

    /** The window of length {@code length} that ends at {@code end}. */
    public static TimeRange ending(Instant end, Duration length) {
        return new TimeRange(end.minus(length), end);
    }

    public Duration length() {
        return Duration.between(start, end);
    }
}
