package dev.omcp.ports.audit;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The answer to an {@link AuditQuery}.
 *
 * @param entries matching entries, newest first
 * @param tipSeq the {@code seq} of the newest entry in the whole log; 0 when the log is empty
 * @param tipHash the {@code hash} of the newest entry in the whole log (the one the next entry
 *     chains to); {@link AuditEntry#GENESIS_HASH} when the log is empty
 * @param resumeBeforeSeq present when the store stopped at its work budget before the page was full:
 *     the {@code beforeSeq} the search continues from ({@link AuditSearch#resumeBeforeSeq()})
 */
public record AuditPage(List<AuditEntry> entries, long tipSeq, String tipHash, OptionalLong resumeBeforeSeq) {
    public AuditPage {
        entries = List.copyOf(entries);
        Objects.requireNonNull(tipHash, "tipHash");
        Objects.requireNonNull(resumeBeforeSeq, "resumeBeforeSeq");
    }

    /** A page whose search covered everything it could match. */
    public AuditPage(List<AuditEntry> entries, long tipSeq, String tipHash) {
        this(entries, tipSeq, tipHash, OptionalLong.empty());
    }
}
