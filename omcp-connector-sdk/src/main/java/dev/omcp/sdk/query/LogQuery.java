package dev.omcp.sdk.query;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A log search for one service, filtered on the backend.
 *
 * @param service the service name
 * @param range the time window
 * @param lineRegex a regular expression (RE2 syntax) lines must match
 * @param level a log level lines must carry, for example {@code error}
 * @param labels exact-match filters on labels or fields the backend extracts
 * @param limit the most lines to return, newest first
 */
public record LogQuery(
        String service, TimeRange range, Optional<String> lineRegex, Optional<String> level, Map<String, String> labels, int limit) {
    public LogQuery {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(lineRegex, "lineRegex");
        Objects.requireNonNull(level, "level");
        labels = Map.copyOf(labels);
        if (limit < 1) {
            throw new IllegalArgumentException("log query limit must be at least 1, got " + limit);
        }
    }
}
