package dev.omcp.sdk.query;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A log aggregate computed on the backend (spec 4.4 {@code query_logs aggregate}), so the agent
 * gets numbers instead of lines.
 *
 * <p>The counts per step tile the window: the first point is at {@code start + step}, the last at
 * {@code end}, and each counts the lines of the step that ends at its timestamp. So the points add
 * up to the lines of the window, no more (a first point at {@code start} would count the step
 * before the window) and no fewer. That is why {@code step} divides the window into whole steps
 * ({@link #tilingStep}); a connector that must widen it (a backend's limit on points per series)
 * widens it to another step that divides the window and says so in {@link MetricResult#step()}.
 *
 * @param query the filters that select the lines (its {@code limit} is ignored)
 * @param function what to compute
 * @param by labels to group by; for {@code TOPK} the groups ranked
 * @param k how many groups {@code TOPK} keeps
 * @param step the resolution of the resulting series: whole seconds that divide the window
 *     ({@code TOPK} counts over the whole window and ignores it)
 */
public record LogAggregation(LogQuery query, Function function, List<String> by, int k, Duration step) {
    /** The aggregate functions pushed down to the backend. */
    public enum Function {
        /**
         * Lines per step of each stream ({@code count_over_time}), or of each group of {@code by}.
         * Streams are told apart by their own labels, never by fields a parser extracted from the
         * lines: those differ line by line (a trace id) and would make every line a series.
         */
        COUNT_OVER_TIME,
        /** Lines per step summed across streams, grouped by {@code by}. */
        SUM,
        /** The {@code k} groups of {@code by} with the most lines in the window. */
        TOPK
    }

    public LogAggregation {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(function, "function");
        by = List.copyOf(by);
        Objects.requireNonNull(step, "step");
        if (function == Function.TOPK && (k < 1 || by.isEmpty())) {
            throw new IllegalArgumentException("topk needs k >= 1 and at least one label in 'by'");
        }
        if (function != Function.TOPK && !divides(step, query.range().length())) {
            throw new IllegalArgumentException("step " + step + " must be whole seconds that divide the window "
                    + query.range().length() + " (see LogAggregation.tilingStep)");
        }
    }

    /**
     * The shortest step of at least {@code atLeast} (rounded up to whole seconds, at least one)
     * that divides {@code window} into whole steps. A window of whole minutes, hours or days always
     * has one close by (1h: 4s, 7m30s...); a prime number of seconds has only itself.
     *
     * @param window the length of the window, whole seconds
     * @param atLeast the shortest acceptable step; not longer than {@code window}
     * @throws IllegalArgumentException when the window is not whole seconds or {@code atLeast}
     *     exceeds it
     */
    public static Duration tilingStep(Duration window, Duration atLeast) {
        if (window.toSeconds() < 1 || window.toNanosPart() != 0) {
            throw new IllegalArgumentException("window " + window + " must be whole seconds, at least one");
        }
        long seconds = window.toSeconds();
        long from = Math.max(1, atLeast.toSeconds() + (atLeast.toNanosPart() > 0 ? 1 : 0));
        if (from > seconds) {
            throw new IllegalArgumentException("step " + atLeast + " is longer than the window " + window);
        }
        for (long step = from; step < seconds; step++) {
            if (seconds % step == 0) {
                return Duration.ofSeconds(step);
            }
        }
        return window;
    }

    private static boolean divides(Duration step, Duration window) {
        return step.toSeconds() >= 1 && step.toNanosPart() == 0 && window.toNanosPart() == 0
                && window.toSeconds() % step.toSeconds() == 0;
    }
}
