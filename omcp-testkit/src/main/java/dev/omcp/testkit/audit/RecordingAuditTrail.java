package dev.omcp.testkit.audit;

import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditTrail;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every recorded {@link AuditEvent} in order; thread-safe. */
public final class RecordingAuditTrail implements AuditTrail {
    private final List<AuditEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void record(AuditEvent event) {
        events.add(event);
    }

    /** The events so far, oldest first. */
    public List<AuditEvent> events() {
        return List.copyOf(events);
    }

    /** Forgets every event. */
    public void clear() {
        events.clear();
    }
}
