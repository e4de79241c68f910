package dev.omcp.sdk.query;

import java.time.Instant;
import java.util.Objects;

/**
 * One trace, summarised (spec 4.4 {@code traces[]}).
 *
 * @param traceId the trace id, lower-case hex
 * @param rootName the root span's operation name
 * @param rootService the root span's service
 * @param start when the root span started; {@link #UNKNOWN_START} when the backend gave no time (the start only
 *     orders a connector's own answer, newest first: it is not shown)
 * @param durationMs the trace's duration in milliseconds, at least 0; {@link #UNKNOWN_DURATION} (NaN) when the
 *     backend gave none or an impossible one: the gateway shows it as {@code durationMs: null}, ranks the trace after
 *     the timed ones and leaves it out of the percentiles. A made-up 0 would be shown as the fastest trace.
 * @param spanCount how many spans it has
 * @param hasError whether any span is marked as an error
 */
public record TraceSummary(
        String traceId, String rootName, String rootService, Instant start, double durationMs, int spanCount, boolean hasError) {
    /** The {@code durationMs} of a trace whose duration the backend did not tell: NaN, never a made-up number. */
    public static final double UNKNOWN_DURATION = Double.NaN;
    /** The {@code start} of a trace whose start the backend did not tell: it orders after every dated trace. */
    public static final Instant UNKNOWN_START = Instant.EPOCH;

    public TraceSummary {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(rootName, "rootName");
        Objects.requireNonNull(rootService, "rootService");
        Objects.requireNonNull(start, "start");
    }
}
