package dev.omcp.app.wiring;

import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditTrail;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each audit event as one log line on the {@code dev.omcp.audit} logger. It stands where the
 * hash-chained audit log (issue 5, item 5) plugs in; until then every mutating management request
 * is at least visible in the log.
 */
final class LogAuditTrail implements AuditTrail {
    private static final Logger AUDIT = LoggerFactory.getLogger("dev.omcp.audit");

    @Override
    public void record(AuditEvent event) {
        AUDIT.info("event=audit actor=\"{}\" tenant=\"{}\" resource={} action={} method={} path=\"{}\" status={} ip={} target=\"{}\"",
                event.actor(), event.tenant(), event.resource(), event.action(), event.method(), event.path(), event.status(),
                event.ip(), event.target());
    }
}
