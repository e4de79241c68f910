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
 * as good as "the last one".
 */
public final class SourceActivity {
    private static final long NEVER = Long.MIN_VALUE;

    private final Clock clock;
    private final boolean recording;
    private volatile long answeredAt = NEVER;
    private volatile Failure failure;

    private record Failure(long at, ConnectorException.Kind kind) {}

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
            failure = new Failure(clock.millis(), kind);
        }
    }

    /** What is known so far; both parts empty before the first call. */
    public SourceContact contact() {
        long answered = answeredAt;
        Failure failed = failure;
        return new SourceContact(
                answered == NEVER ? Optional.empty() : Optional.of(Instant.ofEpochMilli(answered)),
                failed == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(failed.at())),
                failed == null ? Optional.empty() : Optional.of(failed.kind()));
    }
}
