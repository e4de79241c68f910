package dev.omcp.adapters.http.api;

import dev.omcp.ports.audit.AuditRecording;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code /readyz} names while the gateway is ready but part of it refuses work: the
 * {@code degraded} array of its answer.
 *
 * <p>An audit log that cannot record keeps the answer at 200. Only management changes are audited
 * (spec 2.7), so only they are refused (503 {@code OMCP_AUDIT_UNAVAILABLE}); agents' MCP calls and
 * every read are served as before. A 503 would take the replica out of the load balancer for
 * traffic it serves, and would keep it stuck: a failing log recovers when the next change's entry
 * is written, and a drained replica gets no change. A cause shared by every replica (a full shared
 * volume, a logrotate run on every host) would drain them all at once. The state changes only when
 * an entry is written or refused, so nothing here can flap on a sink's retry; sinks are not
 * named at all, as their losses refuse nothing and the audit file stays the record.
 *
 * <p>The details say what is refused and what to do, never why: the reason may name the file, and
 * the answer is public (it says no more than {@code omcp_audit_recording} at {@code /metrics}).
 */
final class ReadinessDegradations {
    private static final String FAILING = "the last audit entry could not be written, so management changes are refused with"
            + " 503 OMCP_AUDIT_UNAVAILABLE; agents' MCP calls and reads are served. Each refused change tries to write again,"
            + " so this clears by itself once an entry is written; the gateway log says why (event=audit-failed)";
    private static final String STOPPED = "the audit log takes no entries until the gateway is restarted, so management"
            + " changes are refused with 503 OMCP_AUDIT_UNAVAILABLE; agents' MCP calls and reads are served. The gateway log"
            + " says why (event=audit-failed, event=audit-fsync-failed): fix the file or its disk, then restart";

    private ReadinessDegradations() {}

    /** The {@code degraded} entries for an audit log in state {@code recording}; none while it records. */
    static List<Map<String, Object>> of(AuditRecording recording) {
        List<Map<String, Object>> degraded = new ArrayList<>(1);
        switch (recording) {
            case OK -> { }
            case FAILING -> degraded.add(audit("failing", FAILING));
            case STOPPED -> degraded.add(audit("stopped", STOPPED));
        }
        return degraded;
    }

    private static Map<String, Object> audit(String recording, String detail) {
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("check", "audit");
        // the value GET /api/audit and its documentation use, so one alert rule reads both
        check.put("recording", recording);
        check.put("detail", detail);
        return check;
    }
}
