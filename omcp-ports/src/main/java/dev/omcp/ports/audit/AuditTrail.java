package dev.omcp.ports.audit;

/**
 * Driven port: where the management plane reports what happened, one {@link AuditEvent} per
 * mutating {@code /api/*} request and per refused login (spec 2.7, 3.3, 6.2).
 *
 * <p>The caller (the HTTP adapter) calls {@link #record} once per request, after the outcome is
 * known and before the response is sent. An implementation adds the sequence number, timestamp
 * and hash chain, writes the entry and feeds any sinks. Implementations are thread-safe: many
 * requests record concurrently. {@code record} must not block for long (slow sinks are fed
 * asynchronously) and must not throw for a sink failure; an exception means the entry itself could
 * not be recorded, and the caller logs it as an error.
 */
@FunctionalInterface
public interface AuditTrail {

    /** Records one event. */
    void record(AuditEvent event);

    /**
     * Why this trail cannot record entries right now (its store failed to write the last one and
     * has not written one since), or empty when it can. The management plane refuses a mutating
     * request while a reason is present, before the request changes anything, so an action that
     * cannot be audited is not taken (fail closed); the refusal's own entry is the next attempt to
     * write, and once one succeeds the trail is available again. The reason is for the operator's
     * log (it may name a file), not for clients.
     */
    default java.util.Optional<String> unavailable() {
        return java.util.Optional.empty();
    }

    /** A trail that drops every event, for embedders and tests without an audit log. */
    static AuditTrail none() {
        return event -> { };
    }
}
