package dev.omcp.adapters.http.inspect;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.Derivation;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.ManageInspect;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.inspect.RuleChange;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Inspect's management routes (spec 4.3, docs/inspect.md): the mode and its counters, the observed calls, the profile
 * (read, derive, review), the deviations from it and the flows. Reads need {@code inspection:read}; the mode change,
 * the derivation and a review need {@code inspection:write} and are audited (the guard does both, as for every
 * mutating route). A caller bound to a tenant reads its tenant's events, deviations and flows only, and the profile,
 * which is gateway-wide, not at all ({@link GatewayWideProfile}).
 */
public final class InspectRoutes implements HttpModule {
    /** As {@code Rule}'s constructor checks an id: an id outside it names no rule and is refused before the core. */
    static final Pattern RULE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Map<String, Object> MODE_BODY = BodySchema.object("the mode to switch to")
            .requiredProperty("mode", Map.of("type", "string", "enum", List.of("off", "observe", "dryrun", "enforce"),
                    "description", "off, observe and dryrun switch at once; enforce needs the inspect-enforce entitlement (403)"
                            + " and at least one accepted rule (409)"))
            .build();
    private static final Map<String, Object> DERIVE_BODY = BodySchema.object("optional: an empty body (or {}) derives from the"
                    + " whole Inspect window")
            .property("window", BodySchema.string("how far back to read, a number and a unit s, m, h or d (30s, 15m, 6h, 7d),"
                    + " at most the Inspect window (OMCP_INSPECT_WINDOW); left out: the whole Inspect window", InspectWindow.FORM))
            .build();
    private static final Map<String, Object> LISTS = Map.of("type", "array", "items", Map.of("type", "string"));
    private static final Map<String, Object> RULE_EDIT_BODY = BodySchema.object("a review {status}, or an edit of any of"
                    + " subject, resources and args (the status is kept); the two do not mix")
            .property("status", Map.of("type", "string", "enum", List.of("suggested", "accepted", "rejected"),
                    "description", "the rule's new review state; only accepted rules count in dryrun and enforce"))
            .property("subject", BodySchema.string("who the rule is for: a principal id (key:ci-bot, user:alice), role:<role>,"
                    + " product:<id> or *"))
            .property("resources", Map.of("type", "object", "additionalProperties", LISTS, "description",
                    "replaces the allowed values per resource dimension (source, service, namespace), each 1-256 values"))
            .property("args", Map.of("type", "object", "additionalProperties", LISTS, "description",
                    "replaces the allowed buckets per argument (num:<=100, dur:<=1h, ...), each 1-256 buckets"))
            .keyword("minProperties", 1)
            .keyword("oneOf", List.of(Map.of("required", List.of("status"), "maxProperties", 1),
                    Map.of("not", Map.of("required", List.of("status")))))
            .build();
    private static final String NOT_SAVED = "the profile could not be saved (OMCP_INSPECT_PROFILE_NOT_SAVED): the message"
            + " says why; nothing changed, in memory or in the file";

    private final ManageInspect inspect;

    public InspectRoutes(ManageInspect inspect) {
        this.inspect = Objects.requireNonNull(inspect, "inspect");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/inspect/mode").permission("inspection", "read").tag("inspect").queryParameters()
                .summary("The Inspect mode, its counters since start and the profile's size; needs inspection:read")
                .response(200, "{mode: off|observe|dryrun|enforce, counts: {observed, dropped, wouldBlock, blocked},"
                        + " storage: memory|file, windowSeconds, profile: {accepted, suggested, storage: memory|file}}")
                .handle(this::mode);
        routes.route(HandlerType.PUT, "/api/inspect/mode").permission("inspection", "write").tag("inspect").queryParameters()
                .jsonBody(MODE_BODY)
                .summary("Switches the Inspect mode; body {mode}; off, observe and dryrun switch at once, enforce needs the"
                        + " inspect-enforce entitlement and an accepted rule; needs inspection:write; audited")
                .response(200, "{mode, previous}")
                .response(400, "the body is not {mode: off|observe|dryrun|enforce} (OMCP_INVALID_BODY)")
                .response(403, "enforce without the inspect-enforce entitlement (OMCP_ENTITLEMENT_REQUIRED); the mode is unchanged")
                .response(409, "enforce while the profile holds no accepted rule, which would block every tool call"
                        + " (OMCP_INSPECT_NO_ACCEPTED_RULES): accept rules first, or use dryrun; the mode is unchanged")
                .handle(this::changeMode);
        routes.route(HandlerType.GET, "/api/inspect/events").permission("inspection", "read").tag("inspect")
                .queryParameters("from", "to", "principal", "tool", "outcome", "decision", "limit")
                .summary("Observed tool calls newest first, within OMCP_INSPECT_WINDOW; filters from, to (ISO-8601), principal,"
                        + " tool, outcome (ok|error), decision (allow|would-block|blocked), limit (1-1000, default 100); a caller"
                        + " with a tenant sees that tenant's records only; needs inspection:read")
                .response(200, "{events: [{ts, principal, authKind, tenant, roles, products, tool, resources, args, outcome,"
                        + " latencyMs, decision}], count}")
                .response(400, "a parameter is unknown, repeated or invalid (OMCP_INVALID_PARAMETERS)")
                .handle(this::events);
        registerProfile(routes);
        routes.route(HandlerType.GET, "/api/inspect/deviations").permission("inspection", "read").tag("inspect")
                .queryParameters(WindowQueryParameters.DEVIATIONS.toArray(String[]::new))
                .summary("The calls of the window that no accepted rule covers, judged against the profile as it is now, newest"
                        + " first; window (30s, 15m, 1h, 7d; default and at most OMCP_INSPECT_WINDOW), limit (1-1000, default"
                        + " 100); a caller with a tenant sees that tenant's calls only; needs inspection:read")
                .response(200, "{deviations: [{kind, detail, event}], total, byKind: {new-principal, new-tool, new-resource,"
                        + " arg-out-of-range}, observations, acceptedRules, windowSeconds}")
                .response(400, "a parameter is unknown, repeated or invalid, or the window is longer than the Inspect window"
                        + " (OMCP_INVALID_PARAMETERS)")
                .handle(this::deviations);
        routes.route(HandlerType.GET, "/api/inspect/flows").permission("inspection", "read").tag("inspect")
                .queryParameters(WindowQueryParameters.FLOWS.toArray(String[]::new))
                .summary("The graph of the window: principals to tools to sources, with calls, errors, would-block and blocked"
                        + " per edge; window (default and at most OMCP_INSPECT_WINDOW); a caller with a tenant sees that"
                        + " tenant's calls only; needs inspection:read")
                .response(200, "{nodes: [{id, kind: principal|tool|source, label, calls}], edges: [{from, to, calls, errors,"
                        + " wouldBlock, blocked}], observations, windowSeconds}")
                .response(400, "a parameter is unknown, repeated or invalid, or the window is longer than the Inspect window"
                        + " (OMCP_INVALID_PARAMETERS)")
                .handle(this::flows);
    }

    private void registerProfile(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/inspect/profile").permission("inspection", "read").tag("inspect").queryParameters()
                .summary("Every rule of the Inspect profile (accepted, suggested, rejected) with its provenance; the profile is"
                        + " gateway-wide, so a caller with a tenant is refused; needs inspection:read")
                .response(200, "{rules: [{id, subject, tool, resources, args, provenance: {learnedFrom, window: {from, to},"
                        + " confidence}, status}], counts: {accepted, suggested, rejected}}")
                .response(403, GatewayWideProfile.DOCUMENTED)
                .handle(this::profile);
        routes.route(HandlerType.POST, "/api/inspect/profile/derive").permission("inspection", "write").tag("inspect")
                .queryParameters().jsonBody(DERIVE_BODY)
                .summary("Derives suggested rules from the ok, unblocked calls of the window (one per principal and tool),"
                        + " replacing earlier suggestions; accepted and rejected rules are kept; optional body {window};"
                        + " needs inspection:write; audited")
                .response(200, "{suggested: [rules this derivation wrote], observations, unchanged, from, to}")
                .response(400, "the body is not {window?}, or the window is not a duration or is longer than the Inspect window"
                        + " (OMCP_INVALID_BODY)")
                .response(403, GatewayWideProfile.DOCUMENTED)
                .response(503, NOT_SAVED)
                .handle(this::derive);
        routes.route(HandlerType.PATCH, "/api/inspect/profile/rules/{id}").permission("inspection", "write").tag("inspect")
                .queryParameters().jsonBody(RULE_EDIT_BODY)
                .summary("Reviews a rule (body {status}: suggested, accepted or rejected) or edits it (any of {subject,"
                        + " resources, args}; the status is kept); needs inspection:write; audited")
                .response(200, "{rule: the rule now, previous: the rule before}")
                .response(400, "the id is not a rule id (OMCP_INVALID_PARAMETERS); the body is empty, mixes status with an"
                        + " edit, or has an unknown member or a wrong type (OMCP_INVALID_BODY); the edited rule would be invalid"
                        + " (OMCP_INVALID_RULE); nothing changed")
                .response(403, GatewayWideProfile.DOCUMENTED)
                .response(404, "no rule has this id (OMCP_RULE_NOT_FOUND)")
                .response(503, NOT_SAVED)
                .handle(this::changeRule);
    }

    private void mode(Context ctx) {
        JsonResponses.json(ctx, 200, InspectJson.status(inspect.status()));
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
            case ModeChange.NoAcceptedRules none -> JsonResponses.error(ctx, 409, "OMCP_INSPECT_NO_ACCEPTED_RULES", none.message());
        }
    }

    private void events(Context ctx) {
        switch (InspectQueryParameters.parse(QueryString.parameters(ctx))) {
            case InspectQueryParameters.Invalid invalid -> JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", invalid.message());
            case InspectQueryParameters.Valid valid -> {
                ObservationQuery query = valid.query();
                List<Observation> events = inspect.events(tenant(ctx).map(query::onlyTenant).orElse(query));
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("events", events.stream().map(Observation::wireFields).toList());
                body.put("count", events.size());
                JsonResponses.json(ctx, 200, body);
            }
        }
    }

    private void profile(Context ctx) {
        if (GatewayWideProfile.admits(ctx, "read it")) {
            JsonResponses.json(ctx, 200, InspectJson.profile(inspect.profile()));
        }
    }

    private void derive(Context ctx) throws IOException {
        if (!GatewayWideProfile.admits(ctx, "derive rules into it")) {
            return;
        }
        Duration inspectWindow = inspect.status().window();
        Duration window = inspectWindow;
        if (hasBody(ctx)) {
            Optional<JsonObject> body = JsonpExchange.object(ctx);
            if (body.isEmpty()) {
                return;
            }
            List<String> problems = new ArrayList<>();
            JsonpExchange.unknownFields(body.get(), Set.of("window")).ifPresent(problems::add);
            JsonValue asked = body.get().get("window");
            if (asked != null && !(asked instanceof JsonString)) {
                problems.add("window: must be a string, a number and a unit s, m, h or d, like 6h");
            } else if (asked instanceof JsonString text) {
                switch (InspectWindow.parse(text.getString(), inspectWindow)) {
                    case InspectWindow.Invalid invalid -> problems.add("window: " + invalid.problem());
                    case InspectWindow.Valid valid -> window = valid.window();
                }
            }
            if (!problems.isEmpty()) {
                JsonpExchange.invalid(ctx, problems);
                return;
            }
        }
        switch (inspect.derive(window)) {
            case Derivation.Derived derived -> {
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("suggested", InspectJson.rules(derived.suggested()));
                answer.put("observations", derived.observations());
                answer.put("unchanged", derived.unchanged());
                answer.put("from", derived.from().toString());
                answer.put("to", derived.to().toString());
                JsonResponses.json(ctx, 200, answer);
            }
            case Derivation.NotSaved notSaved -> JsonResponses.error(ctx, 503, "OMCP_INSPECT_PROFILE_NOT_SAVED", notSaved.message());
        }
    }

    private void changeRule(Context ctx) throws IOException {
        if (!GatewayWideProfile.admits(ctx, "review or edit its rules")) {
            return;
        }
        String id = ctx.pathParam("id");
        if (!RULE_ID.matcher(id).matches()) {
            JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("id: '" + JsonpExchange.printable(id) + "' is not a rule"
                    + " id (1-64 of A-Z a-z 0-9 . _ -), so no rule has it; GET /api/inspect/profile lists the rules and their ids"));
            return;
        }
        if (!hasBody(ctx)) {
            JsonpExchange.invalid(ctx, List.of(RuleEditBody.EMPTY));
            return;
        }
        Optional<JsonObject> body = JsonpExchange.object(ctx);
        if (body.isEmpty()) {
            return;
        }
        switch (RuleEditBody.parse(body.get())) {
            case RuleEditBody.Invalid invalid -> JsonpExchange.invalid(ctx, invalid.problems());
            case RuleEditBody.Valid valid -> answer(ctx, inspect.changeRule(id, valid.edit()));
        }
    }

    private static void answer(Context ctx, RuleChange change) {
        switch (change) {
            case RuleChange.Changed changed -> {
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("rule", InspectJson.rule(changed.after()));
                answer.put("previous", InspectJson.rule(changed.before()));
                JsonResponses.json(ctx, 200, answer);
            }
            case RuleChange.NotFound notFound -> JsonResponses.error(ctx, 404, "OMCP_RULE_NOT_FOUND", "no rule '"
                    + JsonpExchange.printable(notFound.id()) + "' in the Inspect profile; GET /api/inspect/profile lists the rules"
                    + " and their ids");
            case RuleChange.Invalid invalid -> JsonResponses.error(ctx, 400, "OMCP_INVALID_RULE", invalid.message());
            case RuleChange.NotSaved notSaved -> JsonResponses.error(ctx, 503, "OMCP_INSPECT_PROFILE_NOT_SAVED", notSaved.message());
        }
    }

    private void deviations(Context ctx) {
        switch (WindowQueryParameters.parse(QueryString.parameters(ctx), WindowQueryParameters.DEVIATIONS, inspect.status().window())) {
            case WindowQueryParameters.Invalid invalid -> JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", invalid.message());
            case WindowQueryParameters.Valid valid ->
                JsonResponses.json(ctx, 200, InspectJson.deviations(inspect.deviations(valid.window(), tenant(ctx), valid.limit())));
        }
    }

    private void flows(Context ctx) {
        switch (WindowQueryParameters.parse(QueryString.parameters(ctx), WindowQueryParameters.FLOWS, inspect.status().window())) {
            case WindowQueryParameters.Invalid invalid -> JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", invalid.message());
            case WindowQueryParameters.Valid valid ->
                JsonResponses.json(ctx, 200, InspectJson.flows(inspect.flows(valid.window(), tenant(ctx))));
        }
    }

    /** The caller's tenant when it is bound to one: its reads cover that tenant's calls only. */
    private static Optional<String> tenant(Context ctx) {
        return ApiCaller.principal(ctx).map(Principal::tenant).filter(tenant -> !tenant.isEmpty());
    }

    /**
     * Whether the request carries a body: the derivation takes none (its window is optional), and an empty PATCH is
     * told what to send rather than that it is not JSON.
     */
    private static boolean hasBody(Context ctx) {
        return ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null;
    }
}
