package dev.omcp.adapters.http.audit;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditHistory;
import dev.omcp.ports.audit.AuditPage;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditSinkStatus;
import dev.omcp.ports.identity.Principal;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /api/audit?from=&to=&actor=&action=&beforeSeq=&limit=} (spec 4.3): matching entries
 * newest first, each with exactly the fields and values of its line in the audit file (so a client
 * can recompute the hashes), plus the chain's {@code tipSeq} and {@code tipHash}, each sink's
 * delivery status ({@code sinks}), whether the log records ({@code recording}) and the cursor of
 * the next page ({@code nextBeforeSeq}), which a page cut short by the file store's work budget
 * carries too ({@code searchComplete: false}). Served from the file when one is configured. Needs the
 * permission {@code audit:read} (held by every builtin role, spec 5.5), which the management guard
 * enforces.
 *
 * <p>A caller bound to a tenant sees only the entries recorded with that tenant (those of its
 * tenant's actors), as it sees only its tenant's sources and post-mortems: other tenants' entries
 * name their users, addresses and sources. A caller without a tenant sees every entry.
 */
public final class AuditRoutes implements HttpModule {
    /** The permission this route needs (spec 4.3). */
    public static final String PERMISSION = "audit:read";

    private final AuditHistory history;

    public AuditRoutes(AuditHistory history) {
        this.history = Objects.requireNonNull(history, "history");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/audit").permission("audit", "read").tag("audit")
                .summary("Audit entries newest first with the chain's tipHash; filters from, to (ISO-8601), actor, action,"
                        + " beforeSeq (the next page's cursor), limit (1-1000, default 100); a caller with a tenant sees that"
                        + " tenant's entries only. Permission audit:read")
                .response(200, "entries, count, nextBeforeSeq, searchComplete (false: the search stopped at its work budget;"
                        + " continue with beforeSeq=nextBeforeSeq), tipSeq, tipHash, persisted, recording (ok, failing or stopped),"
                        + " sinks (each sink's delivery status: name, queued, delivered, deadLettered, overflowed, lost (entries"
                        + " neither delivered nor written to the dead-letter file), failingSince, lastFailure)")
                .response(400, "a parameter is invalid: {code, error}")
                .handle(this::list);
    }

    private void list(Context ctx) {
        switch (AuditQueryParameters.parse(QueryString.parameters(ctx))) {
            case AuditQueryParameters.Invalid invalid -> JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", invalid.message());
            case AuditQueryParameters.Valid valid -> {
                AuditQuery query = valid.query();
                String tenant = ApiCaller.principal(ctx).map(Principal::tenant).orElse("");
                // a caller bound to a tenant reads its tenant's entries only; one without a tenant operates the whole gateway
                AuditPage page = history.find(tenant.isEmpty() ? query : query.onlyTenant(tenant));
                List<Map<String, Object>> entries = new ArrayList<>(page.entries().size());
                for (AuditEntry entry : page.entries()) {
                    entries.add(json(entry));
                }
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("entries", entries);
                body.put("count", entries.size());
                body.put("nextBeforeSeq", nextBeforeSeq(page, query.limit()));
                // a short page is not the last when the store stopped at its work budget: say so, not only by the cursor
                body.put("searchComplete", page.resumeBeforeSeq().isEmpty());
                body.put("tipSeq", page.tipSeq());
                body.put("tipHash", page.tipHash());
                body.put("persisted", history.persisted());
                // whether changes are refused (503) for want of an audit entry, without the reason, which may name a file
                body.put("recording", history.recording().name().toLowerCase(Locale.ROOT));
                body.put("sinks", history.sinks().stream().map(AuditRoutes::json).toList());
                JsonResponses.json(ctx, 200, body);
            }
        }
    }

    /**
     * Where the next page starts: where the store stopped when it reached its work budget first,
     * otherwise the oldest entry of a full page (a page with fewer entries than the limit was the
     * last). A cursor by {@code seq}, not by time, so entries sharing one millisecond are neither
     * repeated nor skipped. May lead to an empty last page.
     */
    private static Long nextBeforeSeq(AuditPage page, int limit) {
        if (page.resumeBeforeSeq().isPresent()) {
            return page.resumeBeforeSeq().getAsLong(); // the store stopped at its work budget before the page was full
        }
        if (page.entries().size() < limit) {
            return null;
        }
        long oldest = page.entries().get(page.entries().size() - 1).seq();
        return oldest > 1 ? oldest : null;
    }

    /** A sink's delivery status: a destination that has been failing shows here, not only in the log. */
    static Map<String, Object> json(AuditSinkStatus sink) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", sink.name());
        json.put("queued", sink.queued());
        json.put("delivered", sink.delivered());
        json.put("deadLettered", sink.deadLettered());
        json.put("overflowed", sink.overflowed());
        json.put("lost", sink.lost());
        json.put("failingSince", sink.failingSince().map(AuditEntry::formatTimestamp).orElse(null));
        json.put("lastFailure", sink.lastFailure().orElse(null));
        return json;
    }

    /** The entry with the names and values its line in the audit file has (members in canonical order). */
    static Map<String, Object> json(AuditEntry entry) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("action", entry.action());
        json.put("actor", entry.actor());
        json.put("hash", entry.hash());
        json.put("ip", entry.ip());
        json.put("method", entry.method());
        json.put("path", entry.path());
        json.put("prevHash", entry.prevHash());
        json.put("resource", entry.resource());
        json.put("seq", entry.seq());
        json.put("status", entry.status());
        json.put("target", entry.target());
        json.put("tenant", entry.tenant());
        json.put("ts", AuditEntry.formatTimestamp(entry.ts()));
        return json;
    }
}
