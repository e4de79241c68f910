package dev.omcp.sdk.query;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A log aggregate computed on the backend (spec 4.4 {@code query_logs aggregate}), so the agent
 * gets numbers instead of lines.
 *
 * @param query the filters that select the lines (its {@code limit} is ignored)
 * @param function what to compute
 * @param by labels to group by; for {@code TOPK} the groups ranked
 * @param k how many groups {@code TOPK} keeps
 * @param step the resolution of the resulting series
 */
public record LogAggregation(LogQuery query, Function function, List<String> by, int k, Duration step) {
    /** The aggregate functions pushed down to the backend. */
    public enum Function {
        /** Lines per step: {@code count_over_time}. */
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
    }
}
