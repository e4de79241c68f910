package dev.omcp.core.audit;

import dev.omcp.ports.audit.AuditRecord;
import dev.omcp.ports.audit.AuditSink;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands stored records to the sinks in {@code seq} order, each only once the store reported it
 * durable. Publishing as soon as a record was written would let a webhook or bucket hold an entry
 * that a power loss then takes from the file; the restarted chain would write a different entry
 * under the same {@code seq}, and the copies would disagree with the record of truth.
 *
 * <p>Writers become durable in any order (one fsync serves several, and their threads wake in any
 * order), so a record whose predecessors are not yet durable waits here until they are. At most
 * the records of the writers waiting for an fsync wait here.
 *
 * <p>Thread-safety: {@link #durable} may be called from any thread; one lock orders publication.
 */
final class DurablePublication {
    private static final Logger LOG = LoggerFactory.getLogger(DurablePublication.class);

    private final List<AuditSink> sinks;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, AuditRecord> waiting = new HashMap<>();
    private long next = 1;

    DurablePublication(List<AuditSink> sinks) {
        this.sinks = List.copyOf(sinks);
    }

    /** Sets where publication continues: the entry after the store's newest one at start. */
    void continueAfter(long seq) {
        lock.lock();
        try {
            next = seq + 1;
            waiting.clear();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks {@code record} as settled in the store (durable, or as durable as the store's policy
     * makes it) and publishes it, and every record after it that was waiting for it, in order.
     */
    void durable(AuditRecord record) {
        lock.lock();
        try {
            waiting.put(record.entry().seq(), record);
            for (AuditRecord ready = waiting.remove(next); ready != null; ready = waiting.remove(next)) {
                for (AuditSink sink : sinks) {
                    publish(sink, ready);
                }
                next++;
            }
        } finally {
            lock.unlock();
        }
    }

    private static void publish(AuditSink sink, AuditRecord record) {
        try {
            sink.publish(record);
        } catch (RuntimeException e) {
            // A sink must not throw; if one does, the entry is stored anyway and the sink's fault is logged.
            LOG.error("event=audit-sink-failed sink={} seq={} outcome=not-sent", sink.name(), record.entry().seq(), e);
        }
    }
}
