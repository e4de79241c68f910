package dev.omcp.ports.audit;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a store found for an {@link AuditQuery} within the work it allows one search.
 *
 * @param entries matching entries, newest first, at most the query's limit
 * @param resumeBeforeSeq present when the store stopped at its work budget before the page was full
 *     and older entries remain unsearched: the {@code beforeSeq} a next search continues from (every
 *     entry at or above it was searched). Empty when the search covered everything it could match.
 */
public record AuditSearch(List<AuditEntry> entries, OptionalLong resumeBeforeSeq) {
    public AuditSearch {
        entries = List.copyOf(entries);
        Objects.requireNonNull(resumeBeforeSeq, "resumeBeforeSeq");
        if (resumeBeforeSeq.isPresent() && resumeBeforeSeq.getAsLong() < 2) {
            // below seq 1 there is nothing left to search, so such a cursor would only cost the caller a request
            throw new IllegalArgumentException("resumeBeforeSeq must be at least 2, got " + resumeBeforeSeq.getAsLong());
        }
    }

    /** A search that covered everything it could match. */
    public static AuditSearch complete(List<AuditEntry> entries) {
        return new AuditSearch(entries, OptionalLong.empty());
    }
}
