package dev.omcp.ports.audit;

import java.util.List;
import java.util.Optional;

/**
 * Driven port: where audit entries are stored (a JSONL file, or a memory ring).
 *
 * <p>Contract: {@link #open} is called once, before anything else. {@link #append} is called by
 * one thread at a time, in {@code seq} order (the chain serializes its writers);
 * {@link #awaitDurable} and {@link #find} may be called from any thread at any time.
 */
public interface AuditLog {

    /**
     * Prepares the store and tells the chain where it stands.
     *
     * @return the newest stored entry and what was repaired at start
     * @throws java.io.UncheckedIOException when the store cannot be read or refuses to continue
     *     (for example a torn last line under a policy that refuses to repair it)
     */
    AuditLogState open();

    /**
     * Stores one record. The store writes {@link AuditRecord#json()} unchanged.
     *
     * @return a ticket for {@link #awaitDurable}
     * @throws java.io.UncheckedIOException when the record could not be stored; the store is left
     *     as it was before the call, or refuses every further append with a clear reason
     */
    long append(AuditRecord record);

    /**
     * Returns once the record that {@link #append} answered {@code ticket} for is as durable as
     * the store's policy promises (for a file with fsync {@code always}: on disk).
     *
     * @throws java.io.UncheckedIOException when the store could not make it durable; a store whose
     *     durability failed (a failed fsync) refuses every further append until it is reopened,
     *     since a later success would not show that the earlier records were kept
     */
    void awaitDurable(long ticket);

    /**
     * Why the store refuses every further append until it is reopened (a failed fsync, a write it
     * could not undo), found without an append: a store that fsyncs in the background learns of a
     * failure between appends, and the management plane must refuse the next change before it is
     * made, not after. Empty while the store takes entries. The reason is for the operator's log
     * (it may name a file).
     */
    default Optional<String> refusing() {
        return Optional.empty();
    }

    /** Matching entries, newest first, at most {@code query.limit()}, however much of the store that takes to read. */
    List<AuditEntry> find(AuditQuery query);

    /**
     * Like {@link #find}, but a store that can hold more than a request should read (a file) may stop
     * at its work budget and say where to continue ({@link AuditSearch#resumeBeforeSeq()}): a filter
     * that matches nothing would otherwise read the whole file for every request that asks.
     */
    default AuditSearch search(AuditQuery query) {
        return AuditSearch.complete(find(query));
    }

    /** Whether entries survive a restart. */
    boolean persistent();

    /** Makes everything durable and releases the store. */
    void close();
}
