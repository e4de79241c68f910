package dev.omcp.ports.audit;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A search of the audit log ({@code GET /api/audit}): entries newest first.
 *
 * @param from only entries at or after this time
 * @param to only entries at or before this time
 * @param actor only entries of this actor (exact match)
 * @param action only entries with this action (exact match)
 * @param beforeSeq only entries whose {@code seq} is below this one: the cursor of the next page,
 *     which (unlike {@code to}) never repeats an entry, however many share one millisecond
 * @param tenant only entries whose {@code tenant} is this one (the caller's, for a caller bound to a
 *     tenant); empty means entries of every tenant and of none
 * @param limit at most this many entries, 1 to {@link #MAX_LIMIT}
 */
public record AuditQuery(Optional<Instant> from, Optional<Instant> to, Optional<String> actor, Optional<String> action,
        OptionalLong beforeSeq, Optional<String> tenant, int limit) {

    /** The limit when the caller gives none. */
    public static final int DEFAULT_LIMIT = 100;
    /** The largest limit accepted. */
    public static final int MAX_LIMIT = 1000;

    public AuditQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(beforeSeq, "beforeSeq");
        Objects.requireNonNull(tenant, "tenant");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT + ", got " + limit);
        }
        if (from.isPresent() && to.isPresent() && from.get().isAfter(to.get())) {
            throw new IllegalArgumentException("from must not be after to");
        }
        if (beforeSeq.isPresent() && beforeSeq.getAsLong() < 1) {
            throw new IllegalArgumentException("beforeSeq must be at least 1, got " + beforeSeq.getAsLong());
        }
        if (tenant.isPresent() && tenant.get().isEmpty()) {
            throw new IllegalArgumentException("a tenant filter needs a tenant; leave it empty to see every tenant's entries");
        }
    }

    /** A search by time, actor and action, without a cursor or a tenant. */
    public AuditQuery(Optional<Instant> from, Optional<Instant> to, Optional<String> actor, Optional<String> action, int limit) {
        this(from, to, actor, action, OptionalLong.empty(), Optional.empty(), limit);
    }

    /** The newest {@link #DEFAULT_LIMIT} entries, unfiltered. */
    public static AuditQuery latest() {
        return new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_LIMIT);
    }

    /** This search narrowed to the entries of {@code tenant}. */
    public AuditQuery onlyTenant(String tenant) {
        return new AuditQuery(from, to, actor, action, beforeSeq, Optional.of(tenant), limit);
    }

    /** Whether {@code entry} passes every filter. */
    public boolean matches(AuditEntry entry) {
        return from.map(f -> !entry.ts().isBefore(f)).orElse(true)
                && to.map(t -> !entry.ts().isAfter(t)).orElse(true)
                && actor.map(a -> a.equals(entry.actor())).orElse(true)
                && action.map(a -> a.equals(entry.action())).orElse(true)
                && (beforeSeq.isEmpty() || entry.seq() < beforeSeq.getAsLong())
                && tenant.map(t -> t.equals(entry.tenant())).orElse(true);
    }
}
