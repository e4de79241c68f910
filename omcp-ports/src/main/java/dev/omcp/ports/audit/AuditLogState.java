package dev.omcp.ports.audit;

import java.util.Objects;
import java.util.Optional;

/**
 * What a store reports when it opens.
 *
 * @param last the newest stored entry, from which the chain continues; empty for a new log
 * @param beforeLast the entry stored just before {@code last}, when the store has one, so the
 *     chain can check that its tip follows it (a duplicated, removed or swapped last line leaves
 *     every single entry's hash valid; only the link between the two shows it)
 * @param repairedTornTail a torn last line the store cut off, which the chain then records
 */
public record AuditLogState(Optional<AuditEntry> last, Optional<AuditEntry> beforeLast, Optional<TornTail> repairedTornTail) {
    public AuditLogState {
        Objects.requireNonNull(last, "last");
        Objects.requireNonNull(beforeLast, "beforeLast");
        Objects.requireNonNull(repairedTornTail, "repairedTornTail");
        if (beforeLast.isPresent() && last.isEmpty()) {
            throw new IllegalArgumentException("an entry before the last needs a last entry");
        }
    }

    /** A store that knows only its newest entry (for example one that starts a file with a copied last line). */
    public AuditLogState(Optional<AuditEntry> last, Optional<TornTail> repairedTornTail) {
        this(last, Optional.empty(), repairedTornTail);
    }

    /** A new, empty log. */
    public static AuditLogState empty() {
        return new AuditLogState(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * An incomplete last line (no line break), left by a crash in the middle of a write.
     *
     * @param offset the byte offset where the incomplete line starts (the length of the log that
     *     remains)
     * @param length how many bytes the incomplete line had
     */
    public record TornTail(long offset, long length) {}
}
