package dev.omcp.sdk.query;

import java.util.List;
import java.util.Objects;

/**
 * The answer to a {@link LogQuery}.
 *
 * @param entries the matching lines, newest first
 * @param truncated whether more lines matched than the limit allowed
 * @param resolvedQuery the backend query that was run (for Loki, the LogQL)
 * @param warnings what the backend said alongside its answer, one short line each: Loki's
 *     top-level {@code warnings}, a query frontend saying some shards or stores did not answer.
 *     The lines may then be incomplete; the tools show these to the agent. Empty when the backend
 *     said nothing
 */
public record LogResult(List<LogEntry> entries, boolean truncated, String resolvedQuery, List<String> warnings) {
    public LogResult {
        entries = List.copyOf(entries);
        Objects.requireNonNull(resolvedQuery, "resolvedQuery");
        warnings = List.copyOf(warnings);
    }

    /** An answer with nothing said alongside it. */
    public LogResult(List<LogEntry> entries, boolean truncated, String resolvedQuery) {
        this(entries, truncated, resolvedQuery, List.of());
    }
}
