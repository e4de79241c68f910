package dev.omcp.sdk.query;

import java.util.List;

/**
 * The answer to a {@link TraceQuery} with what the backend's answer lacked.
 *
 * @param traces the traces found, as {@link dev.omcp.sdk.connector.TracesCapability#queryTraces} returns them
 * @param warnings what the traces may lack, one short line each: a trace the search found that the
 *     backend no longer had when it was read (Tempo's 404 between search and fetch), naming it. The
 *     tools show these to the agent as {@code backendWarnings}. Empty when nothing is missing
 */
public record TraceResult(List<TraceSummary> traces, List<String> warnings) {
    public TraceResult {
        traces = List.copyOf(traces);
        warnings = List.copyOf(warnings);
    }
}
