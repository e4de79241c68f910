package dev.omcp.ports.audit;

import java.util.List;
import java.util.Objects;

/**
 * The answer to an {@link AuditQuery}.
 *
 * @param entries matching entries, newest first
 * @param tipSeq the {@code seq} of the newest entry in the whole log; 0 when the log is empty
 * @param tipHash the {@code hash} of the newest entry in the whole log (the one the next entry
 *     chains to); {@link AuditEntry#GENESIS_HASH} when the log is empty
 */
public record AuditPage(List<AuditEntry> entries, long tipSeq, String tipHash) {
    public AuditPage {
        entries = List.copyOf(entries);
        Objects.requireNonNull(tipHash, "tipHash");
    }
}
