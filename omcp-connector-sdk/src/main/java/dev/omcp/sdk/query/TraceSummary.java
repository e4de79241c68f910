package dev.omcp.sdk.query;

import java.time.Instant;
import java.util.Objects;

/**
 * One trace, summarised (spec 4.4 {@code traces[]}).
 *
 * @param traceId the trace id, lower-case hex
 * @param rootName the root span's operation name
 * @param rootService the root span's service
 * @param start when the root span started
 * @param durationMs the trace's duration in milliseconds
 * @param spanCount how many spans it has
 * @param hasError whether any span is marked as an error
 */
public record TraceSummary(
        String traceId, String rootName, String rootService, Instant start, double durationMs, int spanCount, boolean hasError) {
    public TraceSummary {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(rootName, "rootName");
        Objects.requireNonNull(rootService, "rootService");
        Objects.requireNonNull(start, "start");
    }
}
