package dev.omcp.sdk.query;

import java.util.List;
import java.util.Objects;

/**
 * The answer to a {@link LogQuery}.
 *
 * @param entries the matching lines, newest first
 * @param truncated whether more lines matched than the limit allowed
 * @param resolvedQuery the backend query that was run (for Loki, the LogQL)
 */
public record LogResult(List<LogEntry> entries, boolean truncated, String resolvedQuery) {
    public LogResult {
        entries = List.copyOf(entries);
        Objects.requireNonNull(resolvedQuery, "resolvedQuery");
    }
}
