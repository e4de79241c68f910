package dev.omcp.sdk.query;

import java.util.Objects;
import java.util.Optional;

/**
 * A trace search (spec 4.4 {@code query_traces}).
 *
 * @param service the service whose traces to find
 * @param range the time window
 * @param filter a backend-native filter (TraceQL for Tempo, an annotation query for Zipkin)
 * @param limit the most traces to return
 * @param errorsOnly only traces with at least one error span
 */
public record TraceQuery(String service, TimeRange range, Optional<String> filter, int limit, boolean errorsOnly) {
    public TraceQuery {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(filter, "filter");
        if (limit < 1) {
            throw new IllegalArgumentException("trace query limit must be at least 1, got " + limit);
        }
    }
}
