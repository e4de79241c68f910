package dev.omcp.ports.audit;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A search of the audit log ({@code GET /api/audit}): entries newest first.
 *
 * @param from only entries at or after this time
 * @param to only entries at or before this time
 * @param actor only entries of this actor (exact match)
 * @param action only entries with this action (exact match)
 * @param limit at most this many entries, 1 to {@link #MAX_LIMIT}
 */
public record AuditQuery(
        Optional<Instant> from, Optional<Instant> to, Optional<String> actor, Optional<String> action, int limit) {

    /** The limit when the caller gives none. */
    public static final int DEFAULT_LIMIT = 100;
    /** The largest limit accepted. */
    public static final int MAX_LIMIT = 1000;

    public AuditQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(action, "action");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT + ", got " + limit);
        }
        if (from.isPresent() && to.isPresent() && from.get().isAfter(to.get())) {
            throw new IllegalArgumentException("from must not be after to");
        }
    }

    /** The newest {@link #DEFAULT_LIMIT} entries, unfiltered. */
    public static AuditQuery latest() {
        return new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_LIMIT);
    }

    /** Whether {@code entry} passes every filter. */
    public boolean matches(AuditEntry entry) {
        return from.map(f -> !entry.ts().isBefore(f)).orElse(true)
                && to.map(t -> !entry.ts().isAfter(t)).orElse(true)
                && actor.map(a -> a.equals(entry.actor())).orElse(true)
                && action.map(a -> a.equals(entry.action())).orElse(true);
    }
}
