package dev.omcp.adapters.http.postmortems;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.adapters.http.tools.ToolAnswers;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.postmortems.ManagePostmortems;
import dev.omcp.ports.postmortems.PostmortemOutcome;
import dev.omcp.ports.postmortems.PostmortemStore;
import dev.omcp.ports.postmortems.PostmortemStoreException;
import dev.omcp.ports.postmortems.StoredPostmortem;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Stored post-mortems (spec 4.3, 2.13).
 *
 * <table>
 *   <caption>routes and the permission each needs</caption>
 *   <tr><td>POST /api/postmortems</td><td>postmortems:write</td></tr>
 *   <tr><td>GET /api/postmortems</td><td>postmortems:read</td></tr>
 *   <tr><td>GET /api/postmortems/{id}</td><td>postmortems:read</td></tr>
 *   <tr><td>DELETE /api/postmortems/{id}</td><td>postmortems:delete (admin in the builtin roles)</td></tr>
 * </table>
 *
 * A caller with a tenant sees only that tenant's entries; an entry of another tenant answers 404
 * exactly like one that does not exist.
 */
public final class PostmortemRoutes implements HttpModule {
    private static final int DEFAULT_LIMIT = 20;
    private static final List<String> LIST_PARAMETERS = List.of("limit", "before");

    private final ManagePostmortems postmortems;

    public PostmortemRoutes(ManagePostmortems postmortems) {
        this.postmortems = Objects.requireNonNull(postmortems, "postmortems");
    }

    /** The body of {@code POST /api/postmortems}, as {@link #generate} reads it. */
    private static final Map<String, Object> GENERATE_BODY = BodySchema.object("the service to write a post-mortem of")
            .requiredProperty("service", BodySchema.string("the service, as list_services names it"))
            .property("duration", BodySchema.string("the window before now to look at, like 30m, 1h or 2d; left out: 1h"))
            .build();

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.POST, "/api/postmortems").permission("postmortems", "write").tag("postmortems").queryParameters()
                .jsonBody(GENERATE_BODY)
                .summary("Generates a post-mortem with generate_postmortem (format json) as the caller and stores it; body "
                        + "{service, duration?} (duration default 1h); needs postmortems:write")
                .response(201, "the stored entry {id, tenant, service, duration, createdAt, createdBy, report}")
                .response(400, "invalid body, service or duration, every problem listed (OMCP_INVALID_BODY)")
                .response(403, "no postmortems:write, CSRF token missing, or refused by the tool chain")
                .response(429, "refused by a rate limit of the tool chain")
                .response(502, "the tool answered an error; nothing stored (OMCP_POSTMORTEM_NOT_GENERATED)")
                .response(503, "no generate_postmortem tool (OMCP_TOOL_UNAVAILABLE) or the store cannot be written "
                        + "(OMCP_POSTMORTEMS_UNAVAILABLE); nothing stored")
                .handle(this::generate);
        routes.route(HandlerType.GET, "/api/postmortems").permission("postmortems", "read").tag("postmortems")
                .queryParameters(LIST_PARAMETERS.toArray(String[]::new))
                .summary("Stored post-mortems of the caller's tenant, newest first; ?limit=1-100 (default 20); "
                        + "?before=<id> for the page after the one that ended with that entry (its nextBefore); needs postmortems:read")
                .response(200, "{postmortems: [entries], nextBefore?: id of the last entry when the page is full, "
                        + "warnings?: [what the store skipped]}")
                .response(400, "limit is not an integer from 1 to 100, or before is no entry the caller may see "
                        + "(OMCP_INVALID_PARAMETERS)")
                .response(503, "the store cannot be read (OMCP_POSTMORTEMS_UNAVAILABLE)")
                .handle(this::list);
        routes.route(HandlerType.GET, "/api/postmortems/{id}").permission("postmortems", "read").tag("postmortems").queryParameters()
                .summary("One stored post-mortem of the caller's tenant; needs postmortems:read")
                .response(200, "the entry")
                .response(400, "not a post-mortem id (OMCP_INVALID_PARAMETERS)")
                .response(404, "no such entry in the caller's tenant (OMCP_POSTMORTEM_NOT_FOUND)")
                .response(503, "the store cannot be read (OMCP_POSTMORTEMS_UNAVAILABLE)")
                .handle(this::find);
        routes.route(HandlerType.DELETE, "/api/postmortems/{id}").permission("postmortems", "delete").tag("postmortems").queryParameters()
                .summary("Deletes a stored post-mortem of the caller's tenant (a tombstone is appended); needs "
                        + "postmortems:delete, admins only in the builtin roles")
                .response(204, "deleted", "")
                .response(400, "not a post-mortem id (OMCP_INVALID_PARAMETERS)")
                .response(404, "no such entry in the caller's tenant (OMCP_POSTMORTEM_NOT_FOUND)")
                .response(503, "the store cannot be written (OMCP_POSTMORTEMS_UNAVAILABLE)")
                .handle(this::delete);
    }

    private void generate(Context ctx) throws IOException {
        Optional<JsonObject> body = JsonpExchange.object(ctx);
        if (body.isEmpty()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        JsonpExchange.unknownFields(body.get(), Set.of("service", "duration")).ifPresent(problems::add);
        JsonValue service = body.get().get("service");
        if (!(service instanceof JsonString)) {
            problems.add("service: required, a string");
        }
        JsonValue duration = body.get().get("duration");
        if (duration != null && !(duration instanceof JsonString)) {
            problems.add("duration: must be a string like 30m, 1h or 2d");
        }
        Optional<String> window = duration instanceof JsonString text ? Optional.of(text.getString()) : Optional.empty();
        if (service instanceof JsonString name) {
            // the generator's own checks (the service's characters, the window's form) in the same answer
            problems.addAll(postmortems.argumentProblems(name.getString(), window));
        }
        if (!problems.isEmpty()) {
            JsonpExchange.invalid(ctx, problems);
            return;
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        PostmortemOutcome outcome = postmortems.generate(caller, ((JsonString) service).getString(), window);
        switch (outcome) {
            case PostmortemOutcome.Stored stored -> {
                ApiCaller.auditTarget(ctx, stored.entry().id());
                ctx.header("Location", "/api/postmortems/" + stored.entry().id());
                JsonpExchange.write(ctx, 201, json(stored.entry()));
            }
            case PostmortemOutcome.Invalid invalid -> JsonpExchange.invalid(ctx, invalid.errors());
            case PostmortemOutcome.NotGenerated notGenerated -> notGenerated(ctx, notGenerated.outcome());
            case PostmortemOutcome.StoreUnavailable unavailable -> unavailable(ctx, unavailable.reason());
            case PostmortemOutcome.NotFound notFound -> notFound(ctx, notFound.id());
            case PostmortemOutcome.Deleted deleted -> throw new IllegalStateException("generate answered a delete");
        }
    }

    private void list(Context ctx) {
        // a parameter other than these was refused before this handler (ApiRoutes#queryParameters)
        for (String name : LIST_PARAMETERS) {
            if (QueryString.values(ctx, name).size() > 1) {
                // the first or the last would win silently; which one the caller meant is not ours to guess
                JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of(name + ": given " + QueryString.values(ctx, name).size()
                        + " times; give it once"));
                return;
            }
        }
        int limit = DEFAULT_LIMIT;
        String requested = QueryString.first(ctx, "limit").orElse(null);
        if (requested != null) {
            if (!requested.matches("[0-9]{1,3}") || Integer.parseInt(requested) < 1 || Integer.parseInt(requested) > PostmortemStore.MAX_LIMIT) {
                JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("limit: '" + JsonpExchange.printable(requested)
                        + "' is not an integer from 1 to " + PostmortemStore.MAX_LIMIT));
                return;
            }
            limit = Integer.parseInt(requested);
        }
        String before = QueryString.first(ctx, "before").orElse(null);
        if (before != null && !StoredPostmortem.ID.matcher(before).matches()) {
            JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("before: '" + JsonpExchange.printable(before)
                    + "' is not a post-mortem id (1-64 of A-Z a-z 0-9 _ -); pass the nextBefore of the previous page"));
            return;
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        List<StoredPostmortem> entries;
        try {
            if (before == null) {
                entries = postmortems.list(caller, limit);
            } else {
                Optional<List<StoredPostmortem>> page = postmortems.listOlderThan(caller, before, limit);
                if (page.isEmpty()) {
                    JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("before: no post-mortem " + before
                            + " that you may see (deleted since the previous page?); list again without before"));
                    return;
                }
                entries = page.get();
            }
        } catch (PostmortemStoreException e) {
            unavailable(ctx, e.getMessage());
            return;
        }
        JsonArrayBuilder items = Jsonp.array();
        entries.forEach(entry -> items.add(json(entry)));
        JsonObjectBuilder body = Jsonp.object().add("postmortems", items);
        if (entries.size() == limit) {
            // a full page may have more below it; the last page is the first one that is not full
            body.add("nextBefore", entries.getLast().id());
        }
        List<String> problems = postmortems.storeProblems();
        if (!problems.isEmpty()) {
            JsonArrayBuilder warnings = Jsonp.array();
            problems.forEach(warnings::add);
            body.add("warnings", warnings);
        }
        JsonpExchange.write(ctx, 200, body.build());
    }

    private void find(Context ctx) {
        Optional<String> id = id(ctx);
        if (id.isEmpty()) {
            return;
        }
        Optional<StoredPostmortem> entry;
        try {
            entry = postmortems.find(ApiCaller.principal(ctx).orElseThrow(), id.get());
        } catch (PostmortemStoreException e) {
            unavailable(ctx, e.getMessage());
            return;
        }
        if (entry.isEmpty()) {
            notFound(ctx, id.get());
            return;
        }
        JsonpExchange.write(ctx, 200, json(entry.get()));
    }

    private void delete(Context ctx) {
        Optional<String> id = id(ctx);
        if (id.isEmpty()) {
            return;
        }
        switch (postmortems.delete(ApiCaller.principal(ctx).orElseThrow(), id.get())) {
            case PostmortemOutcome.Deleted deleted -> ctx.status(204);
            case PostmortemOutcome.NotFound notFound -> notFound(ctx, notFound.id());
            case PostmortemOutcome.StoreUnavailable unavailable -> unavailable(ctx, unavailable.reason());
            case PostmortemOutcome other -> throw new IllegalStateException("delete answered " + other.getClass().getSimpleName());
        }
    }

    private static Optional<String> id(Context ctx) {
        String id = ctx.pathParam("id");
        if (!StoredPostmortem.ID.matcher(id).matches()) {
            // as the answer quotes it: the audit entry of a DELETE names the id only printable and bounded
            ApiCaller.auditTarget(ctx, JsonpExchange.printable(id));
            JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("id: '" + JsonpExchange.printable(id)
                    + "' is not a post-mortem id (1-64 of A-Z a-z 0-9 _ -)"));
            return Optional.empty();
        }
        return Optional.of(id);
    }

    private static void notGenerated(Context ctx, ToolOutcome outcome) {
        if (outcome instanceof ToolOutcome.Completed completed) {
            JsonpExchange.error(ctx, 502, "OMCP_POSTMORTEM_NOT_GENERATED", completed.result().isError()
                    ? completed.result().firstText() : "the tool answered without a JSON report", Jsonp.object()
                    .add("tool", completed.tool()).build());
            return;
        }
        ToolAnswers.refusal(ctx, outcome);
    }

    private static void notFound(Context ctx, String id) {
        JsonResponses.error(ctx, 404, "OMCP_POSTMORTEM_NOT_FOUND", "no post-mortem " + JsonpExchange.printable(id)
                + " that you may see; GET /api/postmortems lists them");
    }

    private static void unavailable(Context ctx, String reason) {
        JsonResponses.error(ctx, 503, "OMCP_POSTMORTEMS_UNAVAILABLE", reason);
    }

    private static JsonObject json(StoredPostmortem entry) {
        return Jsonp.object()
                .add("id", entry.id())
                .add("tenant", entry.tenant())
                .add("service", entry.service())
                .add("duration", entry.duration())
                .add("createdAt", entry.createdAt().toString())
                .add("createdBy", entry.createdBy())
                .add("report", entry.report())
                .build();
    }
}
