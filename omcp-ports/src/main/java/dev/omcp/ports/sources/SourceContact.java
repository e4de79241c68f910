package dev.omcp.ports.sources;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
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
 * @param consecutiveFailures how many calls in a row have failed since the last answer (0 when it answered last)
 * @param failingSince when the first of those failed calls failed (empty when it answered last)
 */
public record SourceContact(Optional<Instant> lastAnswer, Optional<Instant> lastFailure,
        Optional<ConnectorException.Kind> lastFailureKind, int consecutiveFailures, Optional<Instant> failingSince) {
    /** No call has reached the source yet. */
    public static final SourceContact NONE = new SourceContact(Optional.empty(), Optional.empty(), Optional.empty());

    /**
     * How many calls in a row must fail, and over how long at least, before {@link #keepsFailing()}
     * says so. One slow query, or a burst of parallel calls that met the same hiccup, is not an
     * outage; three failures spread over ten seconds with no answer between them are.
     */
    public static final int FAILING_CALLS = 3;

    /** @see #FAILING_CALLS */
    public static final Duration FAILING_SPAN = Duration.ofSeconds(10);

    public SourceContact {
        Objects.requireNonNull(lastAnswer, "lastAnswer");
        Objects.requireNonNull(lastFailure, "lastFailure");
        Objects.requireNonNull(lastFailureKind, "lastFailureKind");
        Objects.requireNonNull(failingSince, "failingSince");
        if (lastFailure.isPresent() != lastFailureKind.isPresent()) {
            throw new IllegalArgumentException("lastFailure and lastFailureKind go together");
        }
        boolean failing = lastFailure.isPresent() && (lastAnswer.isEmpty() || lastFailure.get().isAfter(lastAnswer.get()));
        if (failing != (consecutiveFailures > 0) || failing != failingSince.isPresent()) {
            throw new IllegalArgumentException("consecutiveFailures and failingSince count the failures after the last answer: "
                    + "both are set exactly when lastFailure is later than lastAnswer");
        }
        if (failingSince.isPresent() && failingSince.get().isAfter(lastFailure.get())) {
            throw new IllegalArgumentException("failingSince is not after lastFailure");
        }
    }

    /**
     * What is known without the streak: a failure later than the last answer counts as one failed
     * call in a row, since it.
     */
    public SourceContact(Optional<Instant> lastAnswer, Optional<Instant> lastFailure, Optional<ConnectorException.Kind> lastFailureKind) {
        this(lastAnswer, lastFailure, lastFailureKind, failing(lastAnswer, lastFailure) ? 1 : 0,
                failing(lastAnswer, lastFailure) ? lastFailure : Optional.empty());
    }

    private static boolean failing(Optional<Instant> lastAnswer, Optional<Instant> lastFailure) {
        return lastFailure.isPresent() && (lastAnswer.isEmpty() || lastFailure.get().isAfter(lastAnswer.get()));
    }

    /**
     * Adds {@code lastAnswerAt}, {@code lastFailureAt} (ISO-8601) and {@code lastFailure} (the kind,
     * lower case) to {@code json}, each only when known, and while the source is failing now
     * {@code consecutiveFailures} and {@code failingSince}: the members {@code list_sources},
     * {@code GET /api/sources} and {@code GET /api/health} share.
     */
    public JsonObjectBuilder addTo(JsonObjectBuilder json) {
        lastAnswer.ifPresent(at -> json.add("lastAnswerAt", at.toString()));
        lastFailure.ifPresent(at -> json.add("lastFailureAt", at.toString()));
        lastFailureKind.ifPresent(kind -> json.add("lastFailure", kind.name().toLowerCase(Locale.ROOT)));
        if (consecutiveFailures > 0) {
            json.add("consecutiveFailures", consecutiveFailures);
        }
        failingSince.ifPresent(at -> json.add("failingSince", at.toString()));
        return json;
    }

    /** True when the last thing a call learned of the source is a failure. */
    public boolean failingNow() {
        return consecutiveFailures > 0;
    }

    /**
     * True when the source has failed at least {@link #FAILING_CALLS} calls in a row, the first and
     * the last at least {@link #FAILING_SPAN} apart: what makes {@code GET /api/health} say
     * {@code degraded}.
     */
    public boolean keepsFailing() {
        return consecutiveFailures >= FAILING_CALLS
                && Duration.between(failingSince.orElseThrow(), lastFailure.orElseThrow()).compareTo(FAILING_SPAN) >= 0;
    }
}
