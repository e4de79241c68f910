package dev.omcp.ports.audit;

import java.util.Objects;
import java.util.Optional;

/**
 * What a store reports when it opens.
 *
 * @param last the newest stored entry, from which the chain continues; empty for a new log
 * @param repairedTornTail a torn last line the store cut off, which the chain then records
 */
public record AuditLogState(Optional<AuditEntry> last, Optional<TornTail> repairedTornTail) {
    public AuditLogState {
        Objects.requireNonNull(last, "last");
        Objects.requireNonNull(repairedTornTail, "repairedTornTail");
    }

    /** A new, empty log. */
    public static AuditLogState empty() {
        return new AuditLogState(Optional.empty(), Optional.empty());
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
