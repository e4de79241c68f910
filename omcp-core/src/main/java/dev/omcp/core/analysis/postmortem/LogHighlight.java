package dev.omcp.core.analysis.postmortem;

import java.time.Instant;
import java.util.Objects;

/**
 * A log line worth reading, already redacted by the caller.
 *
 * @param firstSeen when it (or its pattern) first appeared among the lines read
 * @param line the line (or a representative of its pattern)
 * @param occurrences how often it appeared among the lines read, at least 1
 * @param countIsLowerBound the logs source returned only its newest lines (its limit was reached),
 *     so the line may be more frequent and older than {@code occurrences} and {@code firstSeen} say
 */
public record LogHighlight(Instant firstSeen, String line, int occurrences, boolean countIsLowerBound) {
    public LogHighlight {
        Objects.requireNonNull(firstSeen, "firstSeen");
        Objects.requireNonNull(line, "line");
        if (occurrences < 1) {
            throw new IllegalArgumentException("a log highlight occurs at least once");
        }
    }

    /** A highlight counted over every line of the window. */
    public LogHighlight(Instant firstSeen, String line, int occurrences) {
        this(firstSeen, line, occurrences, false);
    }
}
