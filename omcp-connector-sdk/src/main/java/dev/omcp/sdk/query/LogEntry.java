package dev.omcp.sdk.query;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One log line.
 *
 * @param timestamp when it was written
 * @param line the text
 * @param labels its stream labels and extracted fields
 */
public record LogEntry(Instant timestamp, String line, Map<String, String> labels) {
    public LogEntry {
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(line, "line");
        labels = Map.copyOf(labels);
    }
}
