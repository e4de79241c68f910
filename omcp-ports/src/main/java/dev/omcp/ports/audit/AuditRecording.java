package dev.omcp.ports.audit;

/**
 * Whether the audit log records entries now ({@code recording} in {@code GET /api/audit}): while it
 * does not, the management plane refuses every change with 503, so a monitor that reads only the
 * audit endpoint sees why changes fail, and whether a restart is needed.
 */
public enum AuditRecording {
    /** Entries are written. */
    OK,
    /** The last write failed; the next change's entry tries again, and the log recovers by itself once one is written. */
    FAILING,
    /**
     * The store refuses every entry until the gateway is restarted (a failed fsync, or a failed write it
     * could not undo), or the log was closed because the gateway is stopping.
     */
    STOPPED
}
