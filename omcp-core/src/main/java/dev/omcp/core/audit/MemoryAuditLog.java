package dev.omcp.core.audit;

import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditLog;
import dev.omcp.ports.audit.AuditLogState;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The audit store when no file is configured: the newest entries in memory (spec 8: 500), lost
 * at restart. Thread-safe.
 */
public final class MemoryAuditLog implements AuditLog {
    /** Spec 8: the ring holds 500 entries when {@code OMCP_MGMT_AUDIT_FILE} is unset. */
    public static final int DEFAULT_CAPACITY = 500;

    private final int capacity;
    private final ArrayDeque<AuditEntry> ring;
    private final ReentrantLock lock = new ReentrantLock();

    public MemoryAuditLog() {
        this(DEFAULT_CAPACITY);
    }

    public MemoryAuditLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
        this.ring = new ArrayDeque<>(capacity);
    }

    @Override
    public AuditLogState open() {
        return AuditLogState.empty();
    }

    @Override
    public long append(AuditRecord record) {
        lock.lock();
        try {
            if (ring.size() == capacity) {
                ring.removeFirst();
            }
            ring.addLast(record.entry());
            return record.entry().seq();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void awaitDurable(long ticket) {
        // memory is as durable as it gets
    }

    @Override
    public List<AuditEntry> find(AuditQuery query) {
        List<AuditEntry> found = new ArrayList<>();
        lock.lock();
        try {
            Iterator<AuditEntry> newestFirst = ring.descendingIterator();
            while (newestFirst.hasNext() && found.size() < query.limit()) {
                AuditEntry entry = newestFirst.next();
                if (query.matches(entry)) {
                    found.add(entry);
                }
            }
        } finally {
            lock.unlock();
        }
        return found;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public void close() {
        // nothing to release
    }
}
