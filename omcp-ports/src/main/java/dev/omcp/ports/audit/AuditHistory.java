package dev.omcp.ports.audit;

import java.util.List;

/** Driving port: reads the audit log back ({@code GET /api/audit}). Thread-safe. */
public interface AuditHistory {

    /** The entries matching {@code query}, newest first, and the chain's tip. */
    AuditPage find(AuditQuery query);

    /** Whether entries survive a restart (a file is configured), as {@code /api/info} reports. */
    boolean persisted();

    /** Whether the log records entries now, as {@code GET /api/audit} reports it (never why: that may name a file). */
    default AuditRecording recording() {
        return AuditRecording.OK;
    }

    /** How each sink that reports it is doing ({@link AuditSink#status()}), in the order they were configured. */
    default List<AuditSinkStatus> sinks() {
        return List.of();
    }
}
