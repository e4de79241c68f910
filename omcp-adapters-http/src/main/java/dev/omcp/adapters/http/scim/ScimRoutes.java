package dev.omcp.adapters.http.scim;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyRefusal;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.scim.ScimError;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimProvisioning;
import dev.omcp.ports.scim.ScimResourceType;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /scim/v2} (spec 4.5). Registered only when the gateway has a SCIM token and the {@code scim}
 * entitlement at start; the entitlement is asked again on every request, so a token that expires
 * while the gateway runs makes SCIM answer 404 from then on.
 *
 * <p>The identity provider's bearer ({@code OMCP_SCIM_TOKEN}) is the only credential: a management
 * session cookie never authorizes a SCIM call. The routes are registered as public and CSRF-exempt in
 * the management guard's terms (they take no session and no CSRF token: a bearer header cannot be
 * sent by a page cross-site without CORS, which the gateway does not grant), and are checked here
 * instead. Each mutating request is still audited by the guard, fail-closed like every management
 * change, as actor {@code scim:scim} with the action {@code User.create} ... {@code Group.delete}.
 */
public final class ScimRoutes implements HttpModule {
    private static final Logger LOG = LoggerFactory.getLogger(ScimRoutes.class);
    static final String MEDIA_TYPE = "application/scim+json";
    private static final String BASE = "/scim/v2";
    private static final String TAG = "scim";
    private static final int DEFAULT_COUNT = 100;
    private static final String UNAVAILABLE = "the directory's store cannot be used now, nothing changed (SCIM error, Retry-After)";
    /** Seconds an identity provider waits before it retries a request the store could not take, as for the shared store's 503. */
    private static final String RETRY_AFTER_SECONDS = "5";

    private final ScimProvisioning directory;
    private final Entitlements entitlements;
    private final byte[] tokenDigest;
    private final AtomicBoolean lapseLogged = new AtomicBoolean();

    /**
     * @param token {@code OMCP_SCIM_TOKEN}; only its digest is kept
     */
    public ScimRoutes(ScimProvisioning directory, Entitlements entitlements, String token) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.entitlements = Objects.requireNonNull(entitlements, "entitlements");
        if (token.isBlank()) {
            throw new IllegalArgumentException("the SCIM token must not be blank");
        }
        this.tokenDigest = sha256(token);
    }

    @Override
    public void register(ApiRoutes routes) {
        read(routes, "/ServiceProviderConfig", "SCIM capabilities", ctx -> write(ctx, 200, ScimDocuments.serviceProviderConfig()));
        read(routes, "/ResourceTypes", "SCIM resource types", ctx -> write(ctx, 200, ScimDocuments.resourceTypes()));
        read(routes, "/Schemas", "SCIM schemas", ctx -> write(ctx, 200, ScimDocuments.schemas()));
        for (ScimResourceType type : ScimResourceType.values()) {
            String collection = BASE + "/" + type.endpoint();
            String one = collection + "/{id}";
            read(routes, "/" + type.endpoint(), "List SCIM " + type.endpoint(), ctx -> list(ctx, type));
            read(routes, "/" + type.endpoint() + "/{id}", "Read a SCIM " + type.resourceName(),
                    ctx -> answer(ctx, directory.get(type, ctx.pathParam("id"))));
            change(routes, HandlerType.POST, collection, type.resourceName() + ".create", "Create a SCIM " + type.resourceName(),
                    ctx -> body(ctx).ifPresent(body -> answer(ctx, directory.create(type, body))));
            change(routes, HandlerType.PATCH, one, type.resourceName() + ".update", "Update a SCIM " + type.resourceName()
                    + " (PatchOp)", ctx -> body(ctx).ifPresent(body -> answer(ctx, directory.patch(type, ctx.pathParam("id"), body))));
            change(routes, HandlerType.DELETE, one, type.resourceName() + ".delete", "Delete (deprovision) a SCIM "
                    + type.resourceName(), ctx -> answer(ctx, directory.delete(type, ctx.pathParam("id"))));
        }
    }

    private void read(ApiRoutes routes, String path, String summary, Handler handler) {
        routes.route(HandlerType.GET, BASE + path).publicRoute().csrfExempt().tag(TAG).summary(summary)
                .response(200, "OK", MEDIA_TYPE).response(401, "no or a wrong bearer token", MEDIA_TYPE)
                .response(503, UNAVAILABLE, MEDIA_TYPE)
                .handle(ctx -> guarded(ctx, handler));
    }

    private void change(ApiRoutes routes, HandlerType method, String path, String action, String summary, Handler handler) {
        routes.route(method, path).publicRoute().csrfExempt().audit(TAG, action).tag(TAG).summary(summary)
                .response(method == HandlerType.POST ? 201 : method == HandlerType.DELETE ? 204 : 200, "done", MEDIA_TYPE)
                .response(401, "no or a wrong bearer token", MEDIA_TYPE)
                .response(404, "unknown id (SCIM error)", MEDIA_TYPE)
                .response(503, UNAVAILABLE, MEDIA_TYPE)
                .handle(ctx -> guarded(ctx, handler));
    }

    private void guarded(Context ctx, Handler handler) throws Exception {
        ctx.header("Cache-Control", "no-store");
        Optional<String> lapsed = entitlements.missing(Entitlements.SCIM);
        if (lapsed.isPresent()) {
            if (lapseLogged.compareAndSet(false, true)) {
                LOG.warn("event=scim-unavailable reason=\"{}\" effect=\"/scim/v2 answers 404 until a valid entitlement is installed"
                        + " and the gateway restarted\"", lapsed.get());
            }
            ApiCaller.auditActor(ctx, "unauthenticated");
            error(ctx, new ScimError(404, "", "SCIM is not available on this gateway"));
            return;
        }
        if (!bearerMatches(ctx.header("Authorization"))) {
            // a session cookie that came along is not a SCIM credential: the audit names no one
            ApiCaller.auditActor(ctx, "unauthenticated");
            ctx.header("WWW-Authenticate", "Bearer realm=\"scim\"");
            error(ctx, new ScimError(401, "", "send Authorization: Bearer with the SCIM token the gateway was given"
                    + " (OMCP_SCIM_TOKEN)"));
            return;
        }
        ApiCaller.auditActor(ctx, "scim:scim");
        handler.handle(ctx);
    }

    private boolean bearerMatches(String header) {
        if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        // digests of equal length: the comparison takes the same time whatever the token sent
        return MessageDigest.isEqual(tokenDigest, sha256(header.substring(7).strip()));
    }

    private void list(Context ctx, ScimResourceType type) {
        Optional<Integer> start = integer(ctx, "startIndex");
        Optional<Integer> count = integer(ctx, "count");
        if (start.isEmpty() || count.isEmpty()) {
            error(ctx, new ScimError(400, "invalidValue", "startIndex and count must be integers"));
            return;
        }
        answer(ctx, directory.list(type, QueryString.first(ctx, "filter"), start.get() == Integer.MIN_VALUE ? 1 : start.get(),
                count.get() == Integer.MIN_VALUE ? DEFAULT_COUNT : count.get()));
    }

    /** The parameter as an integer, {@link Integer#MIN_VALUE} when absent, or empty when it is not one. */
    private static Optional<Integer> integer(Context ctx, String name) {
        Optional<String> text = QueryString.first(ctx, name);
        if (text.isEmpty()) {
            return Optional.of(Integer.MIN_VALUE);
        }
        try {
            return Optional.of((int) Math.max(-1, Math.min(Integer.MAX_VALUE - 1, Long.parseLong(text.get().strip()))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<JsonObject> body(Context ctx) throws java.io.IOException {
        return JsonpExchange.objectWithNulls(ctx, REFUSAL);
    }

    private void answer(Context ctx, ScimOutcome outcome) {
        switch (outcome) {
            case ScimOutcome.Refused refused -> error(ctx, refused.error());
            case ScimOutcome.Done done -> {
                done.id().ifPresent(id -> ApiCaller.auditTarget(ctx, id));
                if (done.body().isEmpty()) {
                    ctx.status(done.status());
                    return;
                }
                JsonObject body = done.body().get();
                JsonObject meta = body.getJsonObject("meta");
                if (meta != null) {
                    ctx.header("ETag", meta.getString("version", ""));
                    if (done.status() == 201) {
                        ctx.header("Location", meta.getString("location", ""));
                    }
                }
                write(ctx, done.status(), body);
            }
        }
    }

    private static void write(Context ctx, int status, JsonObject body) {
        ctx.status(status).contentType(MEDIA_TYPE).result(body.toString());
    }

    static void error(Context ctx, ScimError error) {
        if (error.status() == 503) {
            ctx.header("Retry-After", RETRY_AFTER_SECONDS);
        }
        var body = Jsonp.object().add("schemas", Jsonp.array().add(ScimError.SCHEMA)).add("status", String.valueOf(error.status()));
        if (!error.scimType().isEmpty()) {
            body.add("scimType", error.scimType());
        }
        body.add("detail", error.detail());
        write(ctx, error.status(), body.build());
    }

    /** Bodies SCIM cannot use are answered in the SCIM error shape (RFC 7644 3.12), with the rules of every route. */
    private static final BodyRefusal REFUSAL = (ctx, status, code, message) ->
            error(ctx, new ScimError(status, status == 400 ? "invalidSyntax" : "", message.replace("application/json",
                    "application/scim+json")));

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
