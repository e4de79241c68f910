package dev.omcp.core.audit;

import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditHistory;
import dev.omcp.ports.audit.AuditLog;
import dev.omcp.ports.audit.AuditLogState;
import dev.omcp.ports.audit.AuditPage;
import dev.omcp.ports.audit.AuditSearch;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditRecord;
import dev.omcp.ports.audit.AuditRecording;
import dev.omcp.ports.audit.AuditSink;
import dev.omcp.ports.audit.AuditSinkStatus;
import dev.omcp.ports.audit.AuditTrail;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hash chain (spec 2.7): gives every event the next {@code seq}, the time, the previous hash
 * and its own hash, stores it, then hands it to the sinks.
 *
 * <p>Thread-safety: {@link #record} may be called from any number of threads. One lock orders
 * the writers, so {@code seq} has no gaps and the store sees entries in {@code seq} order; the
 * store's fsync (when its policy asks for one) happens after the lock is released, so concurrent
 * writers share one fsync. A failed store write does not use up a {@code seq}. Sinks get an entry
 * only once the store reports it durable, still in {@code seq} order ({@link DurablePublication}).
 */
public final class AuditChain implements AuditTrail, AuditHistory, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuditChain.class);

    /** How a refused start ends: what it means and what to do. */
    private static final String ALTERED = "; the log was altered. Run 'omcp audit verify' on the audit file to find the"
            + " first broken entry, then move the file aside to start a new chain";

    /**
     * Why nothing is recorded once {@link #close} began: a management request the shutdown grace did
     * not wait for may still be running, and its change must be refused, not made without an entry.
     */
    private static final String CLOSED = "the audit log was closed because the gateway is stopping";

    /** Actor of the entries the gateway writes about itself. */
    public static final String SYSTEM_ACTOR = "omcp";

    private final AuditLog log;
    private final List<AuditSink> sinks;
    private final DurablePublication publication;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private long lastSeq;
    private String lastHash = AuditEntry.GENESIS_HASH;
    private Instant lastTs = Instant.EPOCH;
    private boolean started;
    /** Why the last write to the store failed, until a write succeeds again; read without the lock. */
    private volatile String failure;
    /** Set under the lock when {@link #close} begins: from then on every change is refused and no entry is stored. */
    private volatile boolean closed;

    public AuditChain(AuditLog log, List<AuditSink> sinks, Clock clock) {
        this.log = Objects.requireNonNull(log, "log");
        this.sinks = List.copyOf(sinks);
        this.publication = new DurablePublication(this.sinks);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Opens the store and continues from its newest entry. The newest entry's hash is checked, and
     * that it follows the entry before it, so a tampered or half-understood tip (or an end whose
     * lines were duplicated, removed or swapped) stops the start instead of growing a broken chain.
     * Entries further back are not read here; {@code omcp audit verify} checks them all. A torn
     * line the store repaired is recorded as the first new entry.
     *
     * @throws IllegalStateException when the store's newest entry does not verify
     */
    public AuditChain start() {
        lock.lock();
        try {
            if (started) {
                throw new IllegalStateException("the audit chain was already started");
            }
            AuditLogState state = log.open();
            try {
                state.last().ifPresent(last -> {
                    requireOwnHash(last, "newest");
                    state.beforeLast().ifPresent(before -> requireLink(before, last));
                    lastSeq = last.seq();
                    lastHash = last.hash();
                    lastTs = last.ts();
                });
            } catch (IllegalStateException refused) {
                // a refused start lets go of the store (its file and its writer's lock), so it can be looked at and repaired
                log.close();
                throw refused;
            }
            publication.continueAfter(lastSeq);
            started = true;
            // the tip in a log line that leaves the machine is an anchor: `omcp audit verify --expect` then shows a cut-off end
            LOG.info("event=audit-chain-started tipSeq={} tipHash={} persistent={}", lastSeq, lastHash, log.persistent());
            state.repairedTornTail().ifPresent(torn -> {
                LOG.warn("event=audit-torn-tail-repaired offset={} bytes={} note=\"an incomplete last line was cut off"
                        + " and kept beside the audit file; an entry records it\"", torn.offset(), torn.length());
                append(new AuditEventFields(SYSTEM_ACTOR, null, "audit", "repair-torn-tail", null, null, 0, null,
                        "offset=" + torn.offset() + ",bytes=" + torn.length()));
            });
            return this;
        } finally {
            lock.unlock();
        }
    }

    private static void requireOwnHash(AuditEntry entry, String which) {
        String computed = AuditEntryCodec.hash(AuditEntryCodec.Entry.of(entry));
        if (!computed.equals(entry.hash())) {
            throw new IllegalStateException("the " + which + " audit entry (seq " + entry.seq() + ") does not match its hash"
                    + ALTERED);
        }
    }

    /**
     * The tip must follow the entry before it. Checking the tip's own hash alone would let a
     * duplicated, removed or swapped last line through, and the chain would grow on top of the break.
     */
    private static void requireLink(AuditEntry before, AuditEntry last) {
        requireOwnHash(before, "second newest");
        if (last.seq() != before.seq() + 1) {
            throw new IllegalStateException("the newest audit entry is seq " + last.seq() + " but the entry before it is seq "
                    + before.seq() + ", not " + (last.seq() - 1) + ALTERED);
        }
        if (!last.prevHash().equals(before.hash())) {
            throw new IllegalStateException("the newest audit entry (seq " + last.seq() + ") has a prevHash that is not the"
                    + " hash of seq " + before.seq() + " before it" + ALTERED);
        }
    }

    @Override
    public void record(AuditEvent event) {
        Objects.requireNonNull(event, "event");
        append(AuditEventFields.of(event));
    }

    /** Chains, stores and publishes one entry; also used for the gateway's own events, which have no request. */
    private void append(AuditEventFields fields) {
        long ticket;
        AuditRecord record;
        lock.lock();
        try {
            if (!started) {
                throw new IllegalStateException("the audit chain must be started before it records");
            }
            if (closed) {
                throw new IllegalStateException(CLOSED + "; this entry was not written");
            }
            Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            // ts never goes backwards, even when the wall clock does, so searches by time can stop early.
            Instant ts = now.isBefore(lastTs) ? lastTs : now;
            AuditEntryCodec.Entry draft = new AuditEntryCodec.Entry(ts, lastSeq + 1, fields.actor(), fields.tenant(),
                    fields.resource(), fields.action(), fields.method(), fields.path(), fields.status(), fields.ip(),
                    fields.target(), lastHash, null);
            AuditEntry entry = draft.withHash(AuditEntryCodec.hash(draft));
            record = new AuditRecord(entry, AuditEntryCodec.line(entry));
            try {
                ticket = log.append(record);
            } catch (RuntimeException e) {
                failure = reason(e);
                throw e;
            }
            failure = null;
            lastSeq = entry.seq();
            lastHash = entry.hash();
            lastTs = ts;
        } finally {
            lock.unlock();
        }
        try {
            log.awaitDurable(ticket);
        } catch (RuntimeException e) {
            // the entry is in the file but may not survive a crash: not audited as promised
            failure = reason(e);
            throw e;
        } finally {
            // also after a failed fsync: the next entries chain to this one, and a sink missing it would show a gap
            publication.durable(record);
        }
    }

    private static String reason(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * Present from a failed store write (or fsync) until the next write succeeds; the management
     * plane then refuses changes instead of making them unaudited. A store that cannot vouch for
     * its data any more (a failed fsync, a failed undo) refuses every write, so this stays present
     * until a restart, also when it learned of the failure between appends (a background fsync).
     */
    @Override
    public Optional<String> unavailable() {
        if (closed) {
            return Optional.of(CLOSED);
        }
        String failed = failure;
        // a store that failed between appends (a background fsync) is refused before the next change, not after it
        return failed != null ? Optional.of(failed) : log.refusing();
    }

    @Override
    public AuditRecording recording() {
        if (closed || log.refusing().isPresent()) {
            return AuditRecording.STOPPED;
        }
        return failure != null ? AuditRecording.FAILING : AuditRecording.OK;
    }

    @Override
    public AuditPage find(AuditQuery query) {
        // an entry holds its tenant bounded as it was written; the caller's is compared the same way
        AuditQuery asWritten = query.tenant()
                .map(tenant -> query.onlyTenant(AuditEventFields.bounded(tenant, AuditEventFields.MAX_NAME)))
                .orElse(query);
        AuditSearch found = log.search(asWritten);
        lock.lock();
        try {
            return new AuditPage(found.entries(), lastSeq, lastHash, found.resumeBeforeSeq());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean persisted() {
        return log.persistent();
    }

    @Override
    public List<AuditSinkStatus> sinks() {
        return sinks.stream().flatMap(sink -> sink.status().stream()).toList();
    }

    /**
     * Stops the sinks and closes the store. The sinks close at the same time, each delivering what it
     * has queued for its own bounded time: one after the other, a webhook and an S3 copy that were
     * both slow added their times up, past the termination grace of an orchestrator, which then
     * killed the process before the second had tried. From the start of the close on, changes are
     * refused ({@link #unavailable}) and entries fail: a management request still running past the
     * HTTP server's shutdown grace takes the fail-closed path of an audit log that cannot record.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            // first, and under the lock: an entry being written ends before, none begins after, so
            // what the sinks get to deliver and the store to fsync below is all there will be
            closed = true;
        } finally {
            lock.unlock();
        }
        List<Thread> closing = new ArrayList<>(sinks.size());
        for (AuditSink sink : sinks) {
            closing.add(Thread.ofVirtual().name("omcp-audit-sink-close-" + sink.name()).start(() -> closeSink(sink)));
        }
        boolean interrupted = false;
        for (Thread thread : closing) {
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    // the store closes only after every sink let go of its queue; the interrupt is kept for the caller
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        log.close();
        lock.lock();
        try {
            if (started) {
                LOG.info("event=audit-chain-closed tipSeq={} tipHash={}", lastSeq, lastHash);
            }
        } finally {
            lock.unlock();
        }
    }

    private static void closeSink(AuditSink sink) {
        try {
            sink.close();
        } catch (RuntimeException e) {
            LOG.error("event=audit-sink-close-failed sink={}", sink.name(), e);
        }
    }
}
