package dev.omcp.core.analysis.traces;

import dev.omcp.sdk.query.TraceSummary;
import java.util.List;
import java.util.Objects;

/** What one traces-capable source answered to the fan-out. */
public sealed interface TraceSourceOutcome permits TraceSourceOutcome.Answered, TraceSourceOutcome.Failed {
    /** The source name. */
    String source();

    /**
     * The source answered (possibly with no traces).
     *
     * @param reachedFetchLimit the source returned as many traces as it was asked for, so its window
     *     may hold more that it did not return (the ranking then covers only those it did)
     */
    record Answered(String source, List<TraceSummary> traces, boolean reachedFetchLimit) implements TraceSourceOutcome {
        public Answered {
            Objects.requireNonNull(source, "source");
            traces = List.copyOf(traces);
        }

        /** An answer known to be the source's whole window. */
        public Answered(String source, List<TraceSummary> traces) {
            this(source, traces, false);
        }
    }

    /**
     * The source failed or timed out.
     *
     * @param message what went wrong, safe to show an agent (no URL, no credential)
     */
    record Failed(String source, String message) implements TraceSourceOutcome {
        public Failed {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(message, "message");
        }
    }
}
