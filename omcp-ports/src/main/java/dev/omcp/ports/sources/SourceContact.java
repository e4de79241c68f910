package dev.omcp.ports.sources;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * When tool calls last got an answer from a source and when one last failed, since the source was
 * connected (kept in memory; a restart or a change of the source starts it again).
 *
 * @param lastAnswer when the source last answered a tool call (a rejected query counts: the backend answered)
 * @param lastFailure when a call to it last failed: unreachable, timed out, refused the credentials, or answered unreadably
 * @param lastFailureKind how that call failed
 */
public record SourceContact(Optional<Instant> lastAnswer, Optional<Instant> lastFailure,
        Optional<ConnectorException.Kind> lastFailureKind) {
    /** No call has reached the source yet. */
    public static final SourceContact NONE = new SourceContact(Optional.empty(), Optional.empty(), Optional.empty());

    public SourceContact {
        Objects.requireNonNull(lastAnswer, "lastAnswer");
        Objects.requireNonNull(lastFailure, "lastFailure");
        Objects.requireNonNull(lastFailureKind, "lastFailureKind");
        if (lastFailure.isPresent() != lastFailureKind.isPresent()) {
            throw new IllegalArgumentException("lastFailure and lastFailureKind go together");
        }
    }

    /**
     * Adds {@code lastAnswerAt}, {@code lastFailureAt} (ISO-8601) and {@code lastFailure} (the kind,
     * lower case) to {@code json}, each only when known: the members {@code list_sources}, {@code GET
     * /api/sources} and {@code GET /api/health} share.
     */
    public JsonObjectBuilder addTo(JsonObjectBuilder json) {
        lastAnswer.ifPresent(at -> json.add("lastAnswerAt", at.toString()));
        lastFailure.ifPresent(at -> json.add("lastFailureAt", at.toString()));
        lastFailureKind.ifPresent(kind -> json.add("lastFailure", kind.name().toLowerCase(Locale.ROOT)));
        return json;
    }

    /** True when the last thing a call learned of the source is a failure. */
    public boolean failingNow() {
        return lastFailure.isPresent() && (lastAnswer.isEmpty() || lastFailure.get().isAfter(lastAnswer.get()));
    }
}
