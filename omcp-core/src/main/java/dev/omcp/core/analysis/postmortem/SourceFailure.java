package dev.omcp.core.analysis.postmortem;

import java.util.Objects;

/**
 * One source that did not answer while a post-mortem was gathered, for the note of the section it
 * feeds.
 *
 * @param source the source's name (never its URL)
 * @param kind whether it ran out of time or failed
 * @param message what the connector or the gateway said, safe to show
 */
public record SourceFailure(String source, Kind kind, String message) {
    /** A timeout may pass on a rerun; an error usually needs someone to fix the source. */
    public enum Kind {
        TIMEOUT,
        ERROR
    }

    public SourceFailure {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    /** {@code "zipkin timed out: the source did not answer in time"}, {@code "kubernetes failed: HTTP 503"}. */
    public String describe() {
        return source + (kind == Kind.TIMEOUT ? " timed out" : " failed") + (message.isBlank() ? "" : ": " + message);
    }
}
