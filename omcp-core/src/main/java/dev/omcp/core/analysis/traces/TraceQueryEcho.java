package dev.omcp.core.analysis.traces;

import java.util.Objects;

/**
 * The {@code query_traces} arguments the merge needs (spec 4.4).
 *
 * @param service the service asked about
 * @param duration the window as the caller wrote it, echoed in the output (default {@code 15m})
 * @param limit the soft cap on returned traces, 1..{@value #MAX_LIMIT} (default {@value #DEFAULT_LIMIT})
 * @param errorsOnly keep only traces with at least one error span
 */
public record TraceQueryEcho(String service, String duration, int limit, boolean errorsOnly) {
    /** spec 4.4: default {@code limit} 50. */
    public static final int DEFAULT_LIMIT = 50;
    /** spec 4.4: default window 15m. */
    public static final String DEFAULT_DURATION = "15m";
    /** The largest limit accepted: bounds the output an agent receives. */
    public static final int MAX_LIMIT = 1000;

    public TraceQueryEcho {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(duration, "duration");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
    }

    /** The spec defaults for a service: 15m, limit 50, all traces. */
    public static TraceQueryEcho defaults(String service) {
        return new TraceQueryEcho(service, DEFAULT_DURATION, DEFAULT_LIMIT, false);
    }
}
