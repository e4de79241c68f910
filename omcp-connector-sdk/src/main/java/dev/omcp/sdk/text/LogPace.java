package dev.omcp.sdk.text;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Paces a log line that a failure repeats on every request (a policy server's outage, a plugin's
 * hook that fails every call): the first occurrence is written at once, then at most one line per
 * {@code every}, which says how many occurrences it stands for. Under load an outage would
 * otherwise write one line per request and bury everything else in the log. Thread-safe.
 */
public final class LogPace {
    private final Clock clock;
    private final Duration every;
    /** Guards the two fields below: when the last line went out, and the occurrences since. */
    private final Object lock = new Object();
    private Instant lastLine;
    private long sinceLastLine;

    public LogPace(Clock clock, Duration every) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.every = Objects.requireNonNull(every, "every");
    }

    /**
     * Counts one occurrence. Returns how many occurrences the line due now stands for (this one and
     * those left unlogged since the previous line), or 0 when no line is due yet.
     */
    public long occurred() {
        Instant now = clock.instant();
        synchronized (lock) {
            sinceLastLine++;
            if (lastLine != null && now.isBefore(lastLine.plus(every))) {
                return 0;
            }
            lastLine = now;
            long count = sinceLastLine;
            sinceLastLine = 0;
            return count;
        }
    }
}
