package dev.omcp.core.sources;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.ports.sources.SourceContact;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the tool calls learned about one connected source since it was connected: when it last
 * answered and when it last failed to, and how. {@code list_sources} and {@code GET /api/sources}
 * show it, so an agent or an operator can tell a source that is failing now from one that failed an
 * hour ago, without asking the backend (which the listing never does).
 *
 * <p>A backend that rejects a query ({@link ConnectorException.Kind#BAD_QUERY}) answered: the
 * query was wrong, not the source. Written by every fan-out, so the fields are plain volatiles and a
 * record costs one clock read; two calls finishing at once may leave either one's outcome, which is
 * as good as "the last one". Failures also count how many calls in a row have failed since the
 * last answer, and since when, so {@code GET /api/health} can tell an outage from one slow query.
 */
public final class SourceActivity {
    private static final long NEVER = Long.MIN_VALUE;

    private final Clock clock;
    private final boolean recording;
    private volatile long answeredAt = NEVER;
    private volatile Failure failure;

    /** The last failure, with the streak of failures since the last answer it ends. */
    private record Failure(long at, ConnectorException.Kind kind, long streakStart, int streak) {}

    /** @param clock when outcomes happen */
    public SourceActivity(Clock clock) {
        this(clock, true);
    }

    private SourceActivity(Clock clock, boolean recording) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.recording = recording;
    }

    /**
     * An activity that keeps nothing: for a source that is never called (not connected) and for
     * connectors wrapped outside a registry, whose outcomes nobody lists.
     */
    public static SourceActivity discarding() {
        return new SourceActivity(Clock.fixed(Instant.EPOCH, java.time.ZoneOffset.UTC), false);
    }

    /** A source answered a call. */
    public void answered() {
        if (recording) {
            answeredAt = clock.millis();
        }
    }

    /** A call to the source failed with {@code kind}; a rejected query counts as an answer. */
    public void failed(ConnectorException.Kind kind) {
        Objects.requireNonNull(kind, "kind");
        if (kind == ConnectorException.Kind.BAD_QUERY) {
            answered();
            return;
        }
        if (recording) {
            recordFailure(kind);
        }
    }

    // Failures are the rare path, so they may take a lock: two calls failing at once both count.
    private synchronized void recordFailure(ConnectorException.Kind kind) {
        long now = clock.millis();
        Failure last = failure;
        boolean streakGoesOn = last != null && last.at() > answeredAt;
        failure = streakGoesOn ? new Failure(now, kind, last.streakStart(), last.streak() + 1) : new Failure(now, kind, now, 1);
    }

    /** What is known so far; empty before the first call. */
    public SourceContact contact() {
        long answered = answeredAt;
        Failure failed = failure;
        boolean failing = failed != null && failed.at() > answered;
        return new SourceContact(
                answered == NEVER ? Optional.empty() : Optional.of(Instant.ofEpochMilli(answered)),
                failed == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(failed.at())),
                failed == null ? Optional.empty() : Optional.of(failed.kind()),
                failing ? failed.streak() : 0,
                failing ? Optional.of(Instant.ofEpochMilli(failed.streakStart())) : Optional.empty());
    }
}
