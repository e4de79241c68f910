package dev.omcp.adapters.http.sources;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyRefusal;
import dev.omcp.adapters.http.api.EntityTags;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.api.ManagementIdentity;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.sources.SourceCheck;
import dev.omcp.ports.sources.SourceDraft;
import dev.omcp.ports.sources.SourceOutcome;
import dev.omcp.ports.sources.SourcePrecondition;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.text.LogField;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET/POST /api/sources}, {@code GET/PUT/DELETE /api/sources/{name}} and
 * {@code POST /api/sources/test}. A source body is
 * {@code {name, type, url, tenant?, enabled?, settings?}}; responses show {@code endpoint}
 * (scheme, host and port) instead of the URL and mask every secret setting. The read-only fields of
 * an answer may be sent back ({@link ReadOnlyFields}).
 *
 * <p>Optimistic concurrency ({@link EntityTags}): one source's {@code GET}, and the answers of
 * {@code POST} and {@code PUT}, carry its version as {@code ETag}; {@code PUT} and {@code DELETE}
 * with {@code If-Match} are made only on that version, else 412 {@code OMCP_PRECONDITION_FAILED}
 * with the stored version's {@code ETag}.
 *
 * <p>Refusals are {@code {code, reason, error}}: 400 for a bad body, an unknown type or a URL the
 * egress guard refuses ({@code OMCP_SOURCE_URL_REJECTED}), 404 for an unknown name, 409 for a
 * duplicate or a removal the sources file conflicts with ({@code OMCP_SOURCE_CONFLICT}: the operator fixes the file, sending
 * it again does not help), 403 {@code OMCP_SOURCE_GATEWAY_WIDE} when a caller bound to a tenant changes or removes a
 * source bound to no tenant (it serves every tenant), 503 when the sources file cannot be written. A body that cannot
 * be used at all gets the management API's common refusals and codes ({@link JsonpExchange}), in this shape: 415 when it is
 * not declared JSON, 413 over 1 MiB, 400 {@code OMCP_INVALID_BODY} when it is not UTF-8, not JSON,
 * not an object, has duplicate keys or is nested deeper than 64 levels. What its fields say is
 * {@code OMCP_SOURCE_INVALID}. Permissions (checked by the RBAC layer,
 * see {@link #PERMISSIONS}): reads need {@code sources:read}, changes and tests
 * {@code sources:write}, removal {@code sources:delete}.
 */
public final class SourcesRoutes implements HttpModule {
    /** The permission each route needs, keyed {@code METHOD path}. */
    public static final Map<String, Permission> PERMISSIONS = Map.of(
            "GET /api/sources", new Permission("sources", "read"),
            "GET /api/sources/{name}", new Permission("sources", "read"),
            "POST /api/sources", new Permission("sources", "write"),
            "POST /api/sources/test", new Permission("sources", "write"),
            "PUT /api/sources/{name}", new Permission("sources", "write"),
            "DELETE /api/sources/{name}", new Permission("sources", "delete"));

    private static final Logger LOG = LoggerFactory.getLogger(SourcesRoutes.class);
    /** Characters of a source name a log line keeps: a name has at most 63. */
    private static final int MAX_LOGGED_NAME = 64;
    private static final Set<String> FIELDS = Set.of("name", "type", "url", "tenant", "enabled", "settings");
    /** The body of {@code POST /api/sources} and {@code POST /api/sources/test}, as {@link #draft} reads it. */
    private static final Map<String, Object> NEW_SOURCE = SourceSchema.of(List.of("name", "type"));
    /** The body of {@code PUT /api/sources/{name}}: the path names the source when the body does not. */
    private static final Map<String, Object> REPLACED_SOURCE = SourceSchema.of(List.of("type"));

    /**
     * The common body refusals in this module's shape, {@code {code, reason, error}}, with every
     * problem of the fields also in {@code errors}.
     */
    private static final BodyRefusal BODY_REFUSAL = new BodyRefusal() {
        @Override
        public void answer(Context ctx, int status, String code, String message) {
            write(ctx, status, Jsonp.object().add("code", code).add("reason", message).add("error", message).build());
        }

        @Override
        public void invalid(Context ctx, String code, List<String> problems) {
            String joined = String.join("; ", problems);
            JsonArrayBuilder errors = Jsonp.array();
            problems.forEach(errors::add);
            write(ctx, 400, Jsonp.object().add("code", code).add("reason", joined).add("error", joined).add("errors", errors).build());
        }
    };

    private final ManageSources sources;
    private final ManagementIdentity identity;

    /**
     * @param sources the core's source management
     * @param identity who is calling
     */
    public SourcesRoutes(ManageSources sources, ManagementIdentity identity) {
        this.sources = Objects.requireNonNull(sources, "sources");
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/sources").permission("sources", "read").tag("sources").queryParameters(BODY_REFUSAL)
                .summary("List sources (URLs shown as scheme://host:port, secrets masked); needs sources:read")
                .response(200, "the sources the caller may see")
                .response(401, "login modes: no valid session")
                .handle(this::list);
        routes.route(HandlerType.POST, "/api/sources").permission("sources", "write").tag("sources").queryParameters(BODY_REFUSAL)
                .jsonBody(NEW_SOURCE)
                .summary("Add a source and connect it; needs sources:write")
                .response(201, "added; Location is its path, /api/sources/{name}")
                .response(400, "invalid body, unknown type, or URL refused by the egress guard (OMCP_SOURCE_URL_REJECTED)")
                .response(409, "the name is taken: source names are unique across the gateway (OMCP_SOURCE_EXISTS)")
                .response(503, "the sources file could not be written; nothing changed")
                .handle(this::add);
        routes.route(HandlerType.GET, "/api/sources/{name}").permission("sources", "read").tag("sources").queryParameters(BODY_REFUSAL)
                .summary("One source as the list shows it, with its version as ETag (for If-Match on PUT and DELETE); "
                        + "needs sources:read")
                .response(200, "{source}; the ETag header is the version of its stored definition")
                .response(400, "the path's name is not a source name (OMCP_INVALID_PARAMETERS)")
                .response(404, "no such source")
                .handle(this::one);
        routes.route(HandlerType.POST, "/api/sources/test").permission("sources", "write").tag("sources").queryParameters(BODY_REFUSAL)
                .jsonBody(NEW_SOURCE)
                .summary("Connect to a source and check its health without saving it; needs sources:write")
                .response(200, "the check ran; ok tells whether the backend answered")
                .response(400, "invalid body, unknown type, or URL refused by the egress guard (OMCP_SOURCE_URL_REJECTED)")
                .handle(this::test);
        routes.route(HandlerType.PUT, "/api/sources/{name}").permission("sources", "write").tag("sources").queryParameters(BODY_REFUSAL)
                .jsonBody(REPLACED_SOURCE)
                .summary("Replace a source; a masked secret, an omitted url, tenant or enabled keeps the stored value; "
                        + "read-only fields are accepted only as the source has them; with If-Match only on that version "
                        + "(the ETag of GET /api/sources/{name}); needs sources:write")
                .response(200, "replaced; the ETag header is the new version")
                .response(400, "invalid body, a read-only field that says otherwise than the source, URL refused by the egress "
                        + "guard, an If-Match that is not a list of entity tags, or the path's name is not a source name "
                        + "(OMCP_INVALID_PARAMETERS)")
                .response(403, "a caller bound to a tenant asked to change a source bound to no tenant, which serves every "
                        + "tenant: only an operator without a tenant may (OMCP_SOURCE_GATEWAY_WIDE); nothing changed")
                .response(404, "no such source")
                .response(412, "If-Match names a version no longer stored: someone changed the source since; nothing changed; "
                        + "the ETag header is the stored version (OMCP_PRECONDITION_FAILED)")
                .response(503, "the sources file could not be written; nothing changed")
                .handle(this::update);
        routes.route(HandlerType.DELETE, "/api/sources/{name}").permission("sources", "delete").tag("sources").queryParameters(BODY_REFUSAL)
                .summary("Remove a source and close its connector; with If-Match only on that version (the ETag of "
                        + "GET /api/sources/{name}); needs sources:delete")
                .response(204, "removed", "")
                .response(400, "the path's name is not a source name (OMCP_INVALID_PARAMETERS), or an If-Match that is not "
                        + "a list of entity tags (OMCP_SOURCE_INVALID)")
                .response(403, "a caller bound to a tenant asked to remove a source bound to no tenant, which serves every "
                        + "tenant: only an operator without a tenant may (OMCP_SOURCE_GATEWAY_WIDE); nothing removed")
                .response(404, "no such source")
                .response(409, "an entry of the sources file that was skipped at start has the same name and would define the "
                        + "source at the next start; the reason names it: delete or rename it, restart, remove again "
                        + "(OMCP_SOURCE_CONFLICT)")
                .response(412, "If-Match names a version no longer stored: someone changed the source since; nothing was "
                        + "removed; the ETag header is the stored version (OMCP_PRECONDITION_FAILED)")
                .response(503, "the sources file could not be written; nothing changed")
                .handle(this::remove);
    }

    private Optional<Principal> caller(Context ctx) {
        Optional<Principal> principal = identity.resolve(ctx);
        if (principal.isEmpty()) {
            write(ctx, 401, Jsonp.object().add("code", "OMCP_AUTH_REQUIRED").add("error", "no valid session; log in first").build());
        }
        return principal;
    }

    private void list(Context ctx) {
        Optional<Principal> caller = caller(ctx);
        if (caller.isEmpty()) {
            return;
        }
        JsonArrayBuilder items = Jsonp.array();
        sources.list(caller.get()).forEach(v -> items.add(json(v)));
        write(ctx, 200, Jsonp.object().add("sources", items).build());
    }

    private void one(Context ctx) {
        Optional<Principal> caller = caller(ctx);
        if (caller.isEmpty()) {
            return;
        }
        Optional<String> name = pathName(ctx);
        if (name.isEmpty()) {
            return;
        }
        Optional<SourceView> source = sources.find(name.get(), caller.get());
        if (source.isEmpty()) {
            refuse(ctx, new SourceOutcome.Refused(SourceOutcome.NOT_FOUND, "no source named '" + name.get() + "'"));
            return;
        }
        // the version of the view this answer shows, read with it: never a newer tag on an older body
        sendVersion(ctx, source.get());
        write(ctx, 200, Jsonp.object().add("source", json(source.get())).build());
    }

    private void add(Context ctx) throws IOException {
        Optional<Principal> caller = caller(ctx);
        if (caller.isEmpty()) {
            return;
        }
        Optional<SourceDraft> draft = draft(ctx, Optional.empty(), ReadOnlyFields::forNewSource);
        if (draft.isEmpty()) {
            return;
        }
        // the name is in the body, not the path: the audit entry names the source it added (or refused)
        ApiCaller.auditTarget(ctx, JsonpExchange.printable(draft.get().name()));
        SourceOutcome outcome = sources.add(draft.get(), caller.get());
        log("add", caller.get(), draft.get().name(), outcome);
        if (outcome instanceof SourceOutcome.Saved saved) {
            // where PUT and DELETE find it; the name is a checked source name, safe in a path
            ctx.header("Location", "/api/sources/" + saved.source().name());
        }
        answer(ctx, outcome, 201);
    }

    private void update(Context ctx) throws IOException {
        Optional<Principal> caller = caller(ctx);
        if (caller.isEmpty()) {
            return;
        }
        Optional<String> name = pathName(ctx);
        if (name.isEmpty()) {
            return;
        }
        Optional<EntityTags.IfMatch> ifMatch = ifMatch(ctx);
        if (ifMatch.isEmpty()) {
            return;
        }
        Optional<JsonObject> body = JsonpExchange.object(ctx, BODY_REFUSAL, SourceOutcome.INVALID);
        if (body.isEmpty()) {
            return;
        }
        // what is not sent as the source has it is refused (the core asks in the same step as the change);
        // the body's own problems are refused first, whatever If-Match says
        Optional<SourceDraft> draft = draft(ctx, body.get(), name, unused -> List.of());
        if (draft.isEmpty()) {
            return;
        }
        SourcePrecondition precondition = new SourcePrecondition(ifMatch.get().required(), ReadOnlyFields.againstStored(body.get()));
        SourceOutcome outcome = sources.update(name.get(), draft.get(), caller.get(), precondition);
        log("update", caller.get(), name.get(), outcome);
        answer(ctx, outcome, 200);
    }

    private void remove(Context ctx) {
        Optional<Principal> caller = caller(ctx);
        if (caller.isEmpty()) {
            return;
        }
        Optional<String> name = pathName(ctx);
        if (name.isEmpty()) {
            return;
        }
        Optional<EntityTags.IfMatch> ifMatch = ifMatch(ctx);
        if (ifMatch.isEmpty()) {
            return;
        }
        SourceOutcome outcome = sources.remove(name.get(), caller.get(), ifMatch.get().required());
        log("remove", caller.get(), name.get(), outcome);
        answer(ctx, outcome, 204);
    }

    private void test(Context ctx) throws IOException {
        Optional<Principal> caller = caller(ctx);
        if (caller.isEmpty()) {
            return;
        }
        Optional<SourceDraft> draft = draft(ctx, Optional.empty(), ReadOnlyFields::forNewSource);
        if (draft.isEmpty()) {
            return;
        }
        // like an add: the audit entry names the source whose URL the gateway was made to connect to
        ApiCaller.auditTarget(ctx, JsonpExchange.printable(draft.get().name()));
        SourceCheck check = sources.test(draft.get(), caller.get());
        if (check.stage().equals("egress")) {
            refuse(ctx, new SourceOutcome.Refused(SourceOutcome.URL_REJECTED, check.message()));
            return;
        }
        if (check.stage().equals("validation")) {
            refuse(ctx, new SourceOutcome.Refused(SourceOutcome.INVALID, check.message()));
            return;
        }
        JsonArrayBuilder caps = Jsonp.array();
        check.capabilities().forEach(caps::add);
        write(ctx, 200, Jsonp.object().add("ok", check.ok()).add("stage", check.stage()).add("message", check.message())
                .add("latencyMs", check.latencyMillis()).add("capabilities", caps).build());
    }

    /**
     * The {@code {name}} of the path when it is a source name (the rule names are created with), or
     * empty after answering 400 {@code OMCP_INVALID_PARAMETERS}: a name no source can have is a
     * mistake of the request, not an unknown source, and the refusal and the audit entry show it
     * only bounded and printable, never the raw value (it may hold control characters or be kilobytes long).
     */
    private static Optional<String> pathName(Context ctx) {
        String name = ctx.pathParam("name");
        if (SourceConfig.isValidName(name)) {
            return Optional.of(name);
        }
        ApiCaller.auditTarget(ctx, JsonpExchange.printable(name));
        BODY_REFUSAL.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("name: '" + JsonpExchange.printable(name)
                + "' is not a source name (" + SourceConfig.NAME_RULE + "); GET /api/sources lists the sources"));
        return Optional.empty();
    }

    /**
     * The request's {@code If-Match}, or empty after answering 400 {@code OMCP_SOURCE_INVALID} when it
     * is not a list of entity tags (before the body is read, as the thresholds route does).
     */
    private static Optional<EntityTags.IfMatch> ifMatch(Context ctx) {
        EntityTags.IfMatch ifMatch = EntityTags.ifMatch(ctx);
        if (ifMatch instanceof EntityTags.IfMatch.Malformed malformed) {
            BODY_REFUSAL.invalid(ctx, SourceOutcome.INVALID, List.of(malformed.problem()));
            return Optional.empty();
        }
        return Optional.of(ifMatch);
    }

    /** Reads the request's body into a draft, as {@link #draft(Context, JsonObject, Optional, Function)} does. */
    private static Optional<SourceDraft> draft(Context ctx, Optional<String> pathName, Function<JsonObject, List<String>> readOnly)
            throws IOException {
        Optional<JsonObject> read = JsonpExchange.object(ctx, BODY_REFUSAL, SourceOutcome.INVALID);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        return draft(ctx, read.get(), pathName, readOnly);
    }

    /**
     * A source body as a draft, or empty after answering 400 {@code OMCP_SOURCE_INVALID} listing every
     * problem of the body (or the management API's 415, 413, 400 {@code OMCP_INVALID_BODY} when it
     * could not be used at all).
     *
     * @param readOnly what the body's read-only fields say wrongly, judged without a stored source
     */
    private static Optional<SourceDraft> draft(Context ctx, JsonObject body, Optional<String> pathName,
            Function<JsonObject, List<String>> readOnly) {
        List<String> problems = new ArrayList<>();
        Set<String> accepted = new HashSet<>(FIELDS);
        accepted.addAll(ReadOnlyFields.names());
        JsonpExchange.unknownFields(body, accepted)
                .ifPresent(unknown -> problems.add(unknown + "; connector settings go under 'settings'"));
        Optional<String> name = string(body, "name");
        Optional<String> type = string(body, "type");
        // given as another JSON type, a name was read as left out and the path's used: a field is a
        // string or left out, never guessed at
        List<String> wrongTypes = Stream.of("name", "type").filter(key -> body.containsKey(key) && string(body, key).isEmpty())
                .map(key -> "'" + key + "' must be a string").toList();
        problems.addAll(wrongTypes);
        if (name.isEmpty() && !body.containsKey("name") && pathName.isPresent()) {
            name = pathName;
        }
        // left out, not of the wrong type (said above): one problem does not hide another
        boolean nameLeftOut = name.isEmpty() && !body.containsKey("name");
        if (nameLeftOut || !body.containsKey("type")) {
            problems.add("'name' and 'type' are required strings");
        }
        if (name.isPresent() && !SourceConfig.isValidName(name.get())) {
            // refused here, bounded, before the core could quote it in a message (a PUT's rename refusal)
            problems.add("name: '" + JsonpExchange.printable(name.get()) + "' is not a source name (" + SourceConfig.NAME_RULE + ")");
        }
        if (body.containsKey("url") && !(body.get("url") instanceof JsonString)) {
            problems.add("'url' must be a string");
        }
        if (body.containsKey("tenant") && !(body.get("tenant") instanceof JsonString)) {
            problems.add("'tenant' must be a string");
        }
        // left out: a new source is enabled, a replaced one keeps what it was (SourceDraft#enabled)
        JsonValue enabled = body.get("enabled");
        if (enabled != null && enabled != JsonValue.TRUE && enabled != JsonValue.FALSE) {
            problems.add("'enabled' must be true or false");
        }
        JsonValue settings = body.getOrDefault("settings", JsonValue.EMPTY_JSON_OBJECT);
        if (settings.getValueType() != JsonValue.ValueType.OBJECT) {
            problems.add("'settings' must be an object");
        }
        problems.addAll(readOnly.apply(body));
        if (!problems.isEmpty()) {
            BODY_REFUSAL.invalid(ctx, SourceOutcome.INVALID, problems);
            return Optional.empty();
        }
        // a blank url is passed on as given: the core refuses it, where left out it keeps the stored one
        return Optional.of(new SourceDraft(name.get(), type.get(), string(body, "url"),
                string(body, "tenant"), Optional.ofNullable(enabled).map(JsonValue.TRUE::equals), settings.asJsonObject()));
    }

    private static Optional<String> string(JsonObject body, String key) {
        return body.get(key) instanceof JsonString s ? Optional.of(s.getString()) : Optional.empty();
    }

    private static void answer(Context ctx, SourceOutcome outcome, int success) {
        switch (outcome) {
            case SourceOutcome.Saved saved -> {
                sendVersion(ctx, saved.source());
                write(ctx, success, Jsonp.object().add("source", json(saved.source())).build());
            }
            case SourceOutcome.Removed removed -> ctx.status(204);
            case SourceOutcome.Stale stale -> {
                EntityTags.send(ctx, stale.currentVersion());
                // the path holds a checked source name: safe to repeat
                String reason = "the source was changed by someone else since the version in If-Match was read, so nothing "
                        + "changed; GET " + ctx.path() + " again, make your change on what it answers and send it with its ETag";
                write(ctx, 412, Jsonp.object().add("code", EntityTags.PRECONDITION_FAILED).add("reason", reason)
                        .add("error", reason).build());
            }
            case SourceOutcome.Refused refused -> refuse(ctx, refused);
        }
    }

    /** The {@code ETag} of {@code source}, when its implementation keeps versions. */
    private static void sendVersion(Context ctx, SourceView source) {
        if (!source.version().isEmpty()) {
            EntityTags.send(ctx, source.version());
        }
    }

    private static void refuse(Context ctx, SourceOutcome.Refused refused) {
        int status = switch (refused.code()) {
            case SourceOutcome.EXISTS, SourceOutcome.CONFLICT -> 409;
            case SourceOutcome.NOT_FOUND -> 404;
            case SourceOutcome.GATEWAY_WIDE -> 403;
            case SourceOutcome.NOT_PERSISTED -> 503;
            default -> 400;
        };
        write(ctx, status, Jsonp.object().add("code", refused.code()).add("reason", refused.reason())
                .add("error", refused.reason()).build());
    }

    /** A source as answers show it. */
    static JsonObject json(SourceView v) {
        JsonArrayBuilder caps = Jsonp.array();
        v.capabilities().forEach(caps::add);
        JsonObjectBuilder b = Jsonp.object()
                .add("name", v.name()).add("type", v.type()).add("endpoint", v.endpoint()).add("tenant", v.tenant())
                .add("enabled", v.enabled()).add("origin", v.origin().name().toLowerCase(java.util.Locale.ROOT))
                .add("status", v.status()).add("capabilities", caps).add("settings", v.settings());
        if (!v.problem().isEmpty()) {
            b.add("problem", v.problem());
        }
        v.contact().addTo(b);
        return b.build();
    }

    private static void write(Context ctx, int status, JsonObject body) {
        ctx.status(status).contentType("application/json").result(body.toString());
    }

    private static void log(String action, Principal caller, String name, SourceOutcome outcome) {
        String result = switch (outcome) {
            case SourceOutcome.Saved s -> "saved status=" + s.source().status();
            case SourceOutcome.Removed r -> "removed";
            case SourceOutcome.Stale stale -> "stale";
            case SourceOutcome.Refused r -> "refused code=" + r.code();
        };
        // the name comes from the request path: only a source name's characters are kept, and a long one is cut
        LOG.info("event=source-{} actor=\"{}\" source={} outcome={}", action, IdentityText.of(caller.id()),
                LogField.of(name.replaceAll("[^A-Za-z0-9._-]", "?"), MAX_LOGGED_NAME), result);
    }

    /** For documentation: the routes and their permissions as {@code METHOD path permission} lines. */
    public static List<String> describe() {
        return PERMISSIONS.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).sorted().toList();
    }
}
