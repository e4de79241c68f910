package dev.omcp.core.analysis.traces;

import dev.omcp.sdk.query.TraceSummary;
import java.util.List;
import java.util.Objects;

/** What one traces-capable source answered to the fan-out. */
public sealed interface TraceSourceOutcome permits TraceSourceOutcome.Answered, TraceSourceOutcome.Failed {
    /** The source name. */
    String source();

    /** The source answered (possibly with no traces). */
    record Answered(String source, List<TraceSummary> traces) implements TraceSourceOutcome {
        public Answered {
            Objects.requireNonNull(source, "source");
            traces = List.copyOf(traces);
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
