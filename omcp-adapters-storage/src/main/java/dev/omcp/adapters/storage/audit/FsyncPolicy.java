package dev.omcp.adapters.storage.audit;

import java.util.Locale;

/** When the audit file is forced to disk ({@code OMCP_AUDIT_FSYNC}). */
public enum FsyncPolicy {
    /**
     * Every entry is on disk before the request that caused it is answered. Concurrent writers
     * share one fsync (group commit). The default: a crash loses no acknowledged entry.
     */
    ALWAYS,
    /** A background fsync at a fixed interval; a crash may lose the entries of the last interval. */
    BATCH,
    /** Never forced (except at shutdown); the operating system writes back when it likes. */
    NEVER;

    /** Parses {@code always}, {@code batch} or {@code never}, in any case. */
    public static FsyncPolicy parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fsync policy must be always, batch or never, got '" + text + "'", e);
        }
    }
}
