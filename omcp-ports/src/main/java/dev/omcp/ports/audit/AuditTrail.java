package dev.omcp.ports.audit;

/**
 * Driving port: records what happened on the management plane. Every mutating {@code /api/*}
 * request and every refused login attempt becomes one entry of the hash-chained audit log
 * (spec 2.7, 3.3).
 *
 * <p>Implementations are thread-safe: any number of request threads may call {@link #record}
 * at once, and each call gets its own gap-free sequence number.
 */
public interface AuditTrail {

    /**
     * Records one event. Returns once the entry is written to the audit store (and, depending on
     * the store's fsync policy, durable). Copies to external sinks (webhook, object storage) are
     * sent later and never delay this call.
     *
     * @param event what happened
     * @throws java.io.UncheckedIOException when the entry could not be written to the audit store;
     *     the caller logs it and carries on, since the change it describes already happened
     */
    void record(AuditEvent event);
}
