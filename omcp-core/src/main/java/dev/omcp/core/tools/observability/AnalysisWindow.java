package dev.omcp.core.tools.observability;

import dev.omcp.sdk.query.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The time range an analysing tool reads: the recent {@code window} being judged plus a baseline
 * before it (at least an hour, four windows for longer ones), so the anomaly detector compares the
 * window with what came before and never with itself. The step keeps the range near
 * {@value #TARGET_POINTS} points and never finer than {@link #MIN_STEP}.
 *
 * @param window the recent stretch being judged
 * @param range the whole range read: baseline then window
 * @param step the resolution of the backend queries
 */
public record AnalysisWindow(Duration window, TimeRange range, Duration step) {
    /** The shortest window: at the finest step it still holds the points a verdict needs. */
    public static final Duration MIN_WINDOW = Duration.ofMinutes(2);
    /** The longest window. */
    public static final Duration MAX_WINDOW = Duration.ofDays(1);
    /** The shortest baseline before the window. */
    public static final Duration MIN_BASELINE = Duration.ofHours(1);
    /** The finest step: a rate over two steps then spans a minute, enough for 15-second scrapes. */
    public static final Duration MIN_STEP = Duration.ofSeconds(30);
    static final int TARGET_POINTS = 600;

    public AnalysisWindow {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(step, "step");
    }

    /**
     * The window of length {@code window} ending at {@code now}, with its baseline.
     *
     * @throws InvalidArgumentException when the window is outside {@link #MIN_WINDOW}..{@link #MAX_WINDOW}
     */
    static AnalysisWindow ending(Instant now, Duration window, String argument) {
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new InvalidArgumentException(argument + " " + Durations.format(window) + " is outside "
                    + Durations.format(MIN_WINDOW) + ".." + Durations.format(MAX_WINDOW) + ": a shorter window holds too few points "
                    + "to judge, a longer one is better read with query_metrics");
        }
        Duration baseline = window.multipliedBy(4).compareTo(MIN_BASELINE) > 0 ? window.multipliedBy(4) : MIN_BASELINE;
        Duration length = baseline.plus(window);
        long stepSeconds = Math.max(MIN_STEP.toSeconds(), (length.toSeconds() + TARGET_POINTS - 1) / TARGET_POINTS);
        return new AnalysisWindow(window, TimeRange.ending(now, length), Duration.ofSeconds(stepSeconds));
    }

    /** Where the window starts (the baseline ends). */
    public Instant windowStart() {
        return range.end().minus(window);
    }
}
