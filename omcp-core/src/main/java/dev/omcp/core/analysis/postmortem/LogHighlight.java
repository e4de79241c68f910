package dev.omcp.core.analysis.postmortem;

import java.time.Instant;
import java.util.Objects;

/**
 * A log line worth reading, already redacted by the caller.
 *
 * @param firstSeen when it (or its pattern) first appeared in the window
 * @param line the line (or a representative of its pattern)
 * @param occurrences how often it appeared, at least 1
 */
public record LogHighlight(Instant firstSeen, String line, int occurrences) {
    public LogHighlight {
        Objects.requireNonNull(firstSeen, "firstSeen");
        Objects.requireNonNull(line, "line");
        if (occurrences < 1) {
            throw new IllegalArgumentException("a log highlight occurs at least once");
        }
    }
}
