package dev.omcp.adapters.http.inspect;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.ManageInspect;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Inspect's management routes of this version (spec 4.3): {@code GET} and {@code PUT /api/inspect/mode}
 * and {@code GET /api/inspect/events}. Reads need {@code inspection:read}; the mode change needs
 * {@code inspection:write} and is audited (the guard does both). A caller bound to a tenant reads its
 * tenant's records only, as with audit.
 */
public final class InspectRoutes implements HttpModule {
    private static final Map<String, Object> MODE_BODY = BodySchema.object("the mode to switch to")
            .requiredProperty("mode", BodySchema.string("off or observe; dryrun and enforce are refused in this version (409), "
                    + "enforce without the inspect-enforce entitlement with 403"))
            .build();

    private final ManageInspect inspect;

    public InspectRoutes(ManageInspect inspect) {
        this.inspect = Objects.requireNonNull(inspect, "inspect");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/inspect/mode").permission("inspection", "read").tag("inspect").queryParameters()
                .summary("The Inspect mode and its counters; needs inspection:read")
                .response(200, "{mode: off|observe, counts: {observed, dropped}, storage: memory|file, windowSeconds}")
                .handle(this::mode);
        routes.route(HandlerType.PUT, "/api/inspect/mode").permission("inspection", "write").tag("inspect").queryParameters()
                .jsonBody(MODE_BODY)
                .summary("Switches the Inspect mode; body {mode}; off and observe switch at once; needs inspection:write; audited")
                .response(200, "{mode, previous}")
                .response(403, "enforce without the inspect-enforce entitlement (OMCP_ENTITLEMENT_REQUIRED); the mode is unchanged")
                .response(409, "dryrun or enforce: they need accepted rules, which this version cannot derive yet"
                        + " (OMCP_INSPECT_PROFILE_NOT_BUILT); the mode is unchanged")
                .handle(this::changeMode);
        routes.route(HandlerType.GET, "/api/inspect/events").permission("inspection", "read").tag("inspect")
                .queryParameters("from", "to", "principal", "tool", "outcome", "decision", "limit")
                .summary("Observed tool calls newest first, within OMCP_INSPECT_WINDOW; filters from, to (ISO-8601), principal,"
                        + " tool, outcome (ok|error), decision (allow|would-block|blocked), limit (1-1000, default 100); a caller"
                        + " with a tenant sees that tenant's records only; needs inspection:read")
                .response(200, "{events: [{ts, principal, authKind, tenant, tool, resources, args, outcome, latencyMs, decision}],"
                        + " count}")
                .response(400, "a parameter is invalid: {code, error}")
                .handle(this::events);
    }

    private void mode(Context ctx) {
        InspectStatus status = inspect.status();
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("observed", status.observed());
        counts.put("dropped", status.dropped());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", status.mode().wireName());
        body.put("counts", counts);
        body.put("storage", status.storage());
        body.put("windowSeconds", status.window().toSeconds());
        JsonResponses.json(ctx, 200, body);
    }

    private void changeMode(Context ctx) throws IOException {
        Optional<JsonObject> body = JsonpExchange.object(ctx);
        if (body.isEmpty()) {
            return;
        }
        Optional<InspectMode> requested = body.get().get("mode") instanceof JsonString text
                ? InspectMode.parse(text.getString()) : Optional.empty();
        if (requested.isEmpty() || body.get().size() != 1) {
            JsonResponses.error(ctx, 400, "OMCP_INVALID_BODY", "the body must be {\"mode\": \"off\"|\"observe\"|\"dryrun\"|\"enforce\"}"
                    + " and nothing else");
            return;
        }
        switch (inspect.changeMode(requested.get())) {
            case ModeChange.Changed changed -> {
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("mode", changed.mode().wireName());
                answer.put("previous", changed.previous().wireName());
                JsonResponses.json(ctx, 200, answer);
            }
            case ModeChange.EntitlementRequired refused -> JsonResponses.error(ctx, 403, "OMCP_ENTITLEMENT_REQUIRED", refused.message());
            case ModeChange.NotBuilt notBuilt -> JsonResponses.error(ctx, 409, "OMCP_INSPECT_PROFILE_NOT_BUILT", notBuilt.message());
        }
    }

    private void events(Context ctx) {
        switch (InspectQueryParameters.parse(QueryString.parameters(ctx))) {
            case InspectQueryParameters.Invalid invalid -> JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", invalid.message());
            case InspectQueryParameters.Valid valid -> {
                ObservationQuery query = valid.query();
                String tenant = ApiCaller.principal(ctx).map(Principal::tenant).orElse("");
                List<Observation> events = inspect.events(tenant.isEmpty() ? query : query.onlyTenant(tenant));
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("events", events.stream().map(Observation::wireFields).toList());
                body.put("count", events.size());
                JsonResponses.json(ctx, 200, body);
            }
        }
    }

}
