package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.Health;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * One health check, timed on the gateway's clock from {@link #start} to the answer. A clock set
 * back while the check ran reads as zero: a negative latency would reach operators as nonsense.
 */
public final class TimedHealthCheck {
    private final Clock clock;
    private final Instant start;

    private TimedHealthCheck(Clock clock) {
        this.clock = clock;
        this.start = clock.instant();
    }

    /** Starts timing a check now. */
    public static TimedHealthCheck start(Clock clock) {
        return new TimedHealthCheck(clock);
    }

    /** The backend answered as expected; {@code message} says what it is (its version, for example). */
    public Health up(String message) {
        return new Health(true, message, elapsed());
    }

    /** The backend did not answer as expected; {@code message} says what failed. */
    public Health down(String message) {
        return new Health(false, message, elapsed());
    }

    private Duration elapsed() {
        Duration d = Duration.between(start, clock.instant());
        return d.isNegative() ? Duration.ZERO : d;
    }
}
