package dev.omcp.ports.audit;

import java.util.Optional;

/**
 * Driven port: an external copy of the audit log (a webhook, object storage). Sinks receive
 * every record after it was stored, in {@code seq} order.
 */
public interface AuditSink {

    /** A short name for logs and metrics, for example {@code webhook}. */
    String name();

    /**
     * Queues {@code record} for delivery and returns at once: it never waits for the network. A
     * record that cannot be queued goes to the sink's dead-letter file.
     */
    void publish(AuditRecord record);

    /** Delivers what is queued (for a bounded time), dead-letters the rest and stops. */
    void close();

    /**
     * How delivery is going, for operators; empty for a sink that does not track it. Thread-safe,
     * cheap, never waits for the network.
     */
    default Optional<AuditSinkStatus> status() {
        return Optional.empty();
    }
}
