package dev.omcp.ports.scim;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Driven port: keeps the SCIM directory ({@code OMCP_SCIM_STORE}, or a store several replicas share;
 * spec 5.6). The directory is small (people and groups of one organisation), so it is read and
 * replaced whole.
 *
 * <p>Every change is a compare-and-set: the caller reads the snapshot and its revision, computes the
 * next snapshot, and {@link #replace}s it only if the revision is still the one it read. Another
 * writer in between (another replica) makes the replace refuse, never overwrite: the caller reads
 * again and redoes its change on what is stored now, so no write is lost. {@link #replace} returns
 * only once the snapshot is durable, and replaces it atomically: a crash leaves the old one or the
 * new one, never a mix.
 *
 * <p>Reads are fresh: a store shared by replicas answers what was last replaced by any of them, so a
 * user deprovisioned through one replica is refused at login on every other one. Thread-safe.
 */
public interface ScimStore {

    /**
     * The snapshot stored now, with its revision; an empty one (revision 0) when nothing was stored yet.
     *
     * @throws dev.omcp.ports.auth.SharedStateUnavailableException when a shared store does not answer, refuses, or
     *     holds something that is not a SCIM directory (or less than it held before: it lost writes); callers fail closed
     */
    Stored read();

    /**
     * Replaces the snapshot of {@code revision} with {@code next}, unless the stored revision is no
     * longer {@code revision}.
     *
     * @return true when {@code next} is stored (under a higher revision); false when another writer replaced the snapshot
     *     since it was read: nothing was written, read again
     * @throws dev.omcp.ports.auth.SharedStateUnavailableException when a shared store does not answer or refuses the write;
     *     what was stored stays
     * @throws java.io.UncheckedIOException when a file could not be written; the previous snapshot stays
     * @throws ScimSnapshotTooLargeException when {@code next} exceeds the size the store reads back; nothing was written
     */
    boolean replace(long revision, ScimSnapshot next);

    /**
     * A snapshot as read, and the revision to name when replacing it.
     *
     * @param snapshot the directory
     * @param revision 0 when nothing was stored yet; each replace stores a higher one
     */
    record Stored(ScimSnapshot snapshot, long revision) {
        public Stored {
            Objects.requireNonNull(snapshot, "snapshot");
            if (revision < 0) {
                throw new IllegalArgumentException("a revision is 0 or more, got " + revision);
            }
        }
    }

    /** A store in memory, lost at restart: for embedders and tests. */
    static ScimStore memory() {
        AtomicReference<Stored> held = new AtomicReference<>(new Stored(ScimSnapshot.empty(), 0));
        return new ScimStore() {
            @Override
            public Stored read() {
                return held.get();
            }

            @Override
            public boolean replace(long revision, ScimSnapshot next) {
                Stored current = held.get();
                return current.revision() == revision && held.compareAndSet(current, new Stored(next, revision + 1));
            }
        };
    }
}
