package dev.omcp.core.analysis.postmortem;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The part of a post-mortem window searched for log highlights.
 *
 * <p>Why not the whole window: a log search reads and parses every line of the service in its range
 * to find the error and warning ones (a LogQL {@code | json | level=~…} stage), so a search over
 * days costs days of lines, and on the demo's simulated Loki a three-day search alone outlasted the
 * 10 s source timeout. The highlights are only the newest 5,000 lines per level anyway. So a window
 * longer than {@link #MAX_SPAN} is searched over at most that long: from {@link #LEAD} before the
 * service's earliest recorded anomaly onset, where the lines that explain an incident are, or, with
 * no onset recorded, over the end of the window.
 *
 * @param from start of the searched range
 * @param to end of the searched range
 * @param onset the onset the range starts shortly before, when it was narrowed to one
 */
public record LogRange(Instant from, Instant to, Optional<Instant> onset) {
    /** The longest range searched. */
    public static final Duration MAX_SPAN = Duration.ofHours(6);
    /** How long before the onset the range starts: the lines that lead up to it. */
    public static final Duration LEAD = Duration.ofMinutes(15);

    public LogRange {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(onset, "onset");
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("log range ends (" + to + ") before it starts (" + from + ")");
        }
    }

    /**
     * The range to search in the window {@code [from, to]}.
     *
     * @param earliestOnset the earliest anomaly onset recorded for the service in the window, if any
     */
    public static LogRange within(Instant from, Instant to, Optional<Instant> earliestOnset) {
        if (Duration.between(from, to).compareTo(MAX_SPAN) <= 0) {
            return new LogRange(from, to, Optional.empty());
        }
        if (earliestOnset.isPresent()) {
            Instant start = max(from, earliestOnset.get().minus(LEAD));
            Instant end = start.plus(MAX_SPAN).isBefore(to) ? start.plus(MAX_SPAN) : to;
            return new LogRange(start, end, earliestOnset);
        }
        return new LogRange(to.minus(MAX_SPAN), to, Optional.empty());
    }

    /** Whether the range is narrower than the window {@code [from, to]}. */
    public boolean narrowerThan(Instant windowFrom, Instant windowTo) {
        return from.isAfter(windowFrom) || to.isBefore(windowTo);
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
