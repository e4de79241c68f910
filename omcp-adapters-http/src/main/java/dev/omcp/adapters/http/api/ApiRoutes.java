package dev.omcp.adapters.http.api;

import dev.omcp.ports.access.Permission;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Registers HTTP routes and remembers what each one is for, so the OpenAPI document is generated
 * from the very list Javalin serves. Register every {@code /api} route through this class.
 *
 * <p>Access control is declared here and enforced centrally by the {@link ApiGuard} for every
 * module: a route names the permission it needs with {@link RouteBuilder#permission}; the guard
 * answers 401 without a session, 403 {@code OMCP_CSRF_MISMATCH} without the CSRF token on a
 * mutating request, 403 {@code OMCP_PERMISSION_DENIED} without the permission, and reports every
 * mutating request to the audit trail. A mutating route ({@code POST}, {@code PUT}, {@code PATCH},
 * {@code DELETE}) must declare a permission unless it is public; registration fails otherwise. A change whose
 * effect reaches every tenant declares so with {@link RouteBuilder#gatewayWide}, and a caller bound to a tenant is
 * then refused ({@link GatewayWideChange}).
 */
public final class ApiRoutes {
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final String JSON = "application/json";

    private final RoutesConfig routes;
    private final ApiGuard guard;
    private final List<Route> documented = new ArrayList<>();

    /**
     * One documented route.
     *
     * @param method HTTP method
     * @param path path template with {@code {param}} placeholders
     * @param summary one line for the OpenAPI document
     * @param tag the group it belongs to
     * @param publicRoute whether it answers without credentials in every mode
     * @param responses status code to description
     * @param permission the permission the route checks, or {@code null} when it checks none
     * @param csrfExempt whether a mutating request needs no CSRF token (machine endpoints, login)
     * @param audited whether a mutating request is reported to the audit trail
     * @param auditResource resource named in audit events when the route has no permission
     * @param auditAction action named in audit events when the route has no permission
     * @param auditAlways whether even a non-mutating request is audited (the OIDC callback is a
     *     login, though a {@code GET})
     * @param queryParameters the query parameters the route takes, any other refused before its
     *     handler runs; empty when the route reads them itself (a tool's arguments, a probe)
     * @param requestBody the body the route reads; empty when it reads none
     * @param gatewayWide what the route changes for every tenant, which a caller bound to a tenant may not change;
     *     empty when its changes stay within the caller's tenant (or it changes nothing)
     */
    public record Route(String method, String path, String summary, String tag, boolean publicRoute, List<Response> responses,
            Permission permission, boolean csrfExempt, boolean audited, String auditResource, String auditAction,
            boolean auditAlways, Optional<List<String>> queryParameters, Optional<RequestBody> requestBody,
            Optional<GatewayWideChange> gatewayWide) {
        public Route {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(tag, "tag");
            responses = List.copyOf(responses);
            Objects.requireNonNull(auditResource, "auditResource");
            Objects.requireNonNull(auditAction, "auditAction");
            queryParameters = queryParameters.map(List::copyOf);
            Objects.requireNonNull(requestBody, "requestBody");
            Objects.requireNonNull(gatewayWide, "gatewayWide");
        }

        /** A route whose changes stay within the caller's tenant. */
        public Route(String method, String path, String summary, String tag, boolean publicRoute, List<Response> responses,
                Permission permission, boolean csrfExempt, boolean audited, String auditResource, String auditAction,
                boolean auditAlways, Optional<List<String>> queryParameters, Optional<RequestBody> requestBody) {
            this(method, path, summary, tag, publicRoute, responses, permission, csrfExempt, audited, auditResource, auditAction,
                    auditAlways, queryParameters, requestBody, Optional.empty());
        }

        public Route(String method, String path, String summary, String tag, boolean publicRoute, List<Response> responses) {
            this(method, path, summary, tag, publicRoute, responses, null, false, true,
                    defaultAuditResource(path), defaultAuditAction(method, path), false, Optional.empty(), Optional.empty());
        }

        /** Whether a request of this route is reported to the audit trail. */
        public boolean reportsToAudit() {
            return (mutating() && audited) || auditAlways;
        }

        /** Whether the method changes state ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}). */
        public boolean mutating() {
            return MUTATING.contains(method);
        }

        /** The resource named in audit events. */
        public String auditedResource() {
            return permission != null ? permission.resource() : auditResource;
        }

        /** The action named in audit events. */
        public String auditedAction() {
            return permission != null ? permission.action() : auditAction;
        }

        /** The names of the path parameters, in order ({@code /api/sources/{name}} gives {@code name}). */
        public List<String> pathParameters() {
            List<String> names = new ArrayList<>();
            for (String part : path.split("/")) {
                if ((part.startsWith("{") && part.endsWith("}")) || (part.startsWith("<") && part.endsWith(">"))) {
                    names.add(part.substring(1, part.length() - 1));
                }
            }
            return names;
        }
    }

    /** {@code /api/auth/login} audits as resource {@code auth}. */
    static String defaultAuditResource(String path) {
        String[] parts = path.replaceFirst("^/api/", "").split("/");
        return parts.length == 0 || parts[0].isEmpty() ? "api" : parts[0];
    }

    /** {@code POST /api/auth/login} audits as action {@code login}; otherwise the method. */
    static String defaultAuditAction(String method, String path) {
        String[] parts = path.replaceFirst("^/api/", "").split("/");
        for (int i = parts.length - 1; i > 0; i--) {
            String part = parts[i];
            if (!part.isEmpty() && !part.startsWith("{") && !part.startsWith("<")) {
                return part;
            }
        }
        return method.toLowerCase(Locale.ROOT);
    }

    /** One documented response of a route. */
    public record Response(int status, String description, String mediaType) {}

    /**
     * The body a route reads.
     *
     * @param mediaTypes the media types it accepts
     * @param readByRequestBodies whether it is read through {@link RequestBodies#jsonText} (directly or
     *     through {@link JsonpExchange}), so the management API's body refusals (400, 413, 415) apply;
     *     otherwise the route documents its own
     * @param jsonSchema what a JSON body holds ({@link BodySchema}); empty when it accepts no JSON. A JSON body
     *     must say more than "an object", or a client generated from the document cannot know what to send.
     */
    public record RequestBody(List<String> mediaTypes, boolean readByRequestBodies, Optional<Map<String, Object>> jsonSchema) {
        public RequestBody {
            mediaTypes = List.copyOf(mediaTypes);
            if (mediaTypes.isEmpty()) {
                throw new IllegalArgumentException("a request body accepts at least one media type");
            }
            Objects.requireNonNull(jsonSchema, "jsonSchema");
            if (mediaTypes.contains(JSON) != jsonSchema.isPresent()) {
                throw new IllegalArgumentException("a JSON request body needs its schema, and only a JSON one has one");
            }
            if (jsonSchema.isPresent() && !BodySchema.describes(jsonSchema.get())) {
                throw new IllegalArgumentException("a JSON request body's schema needs a description and its properties or "
                        + "what its members may be, not just {\"type\": \"object\"}");
            }
        }
    }

    /** Routes with the default guard: everyone is the anonymous principal, nothing is checked. */
    public ApiRoutes(RoutesConfig routes) {
        this(routes, ApiGuard.open());
    }

    /** Routes whose access {@code guard} enforces. */
    public ApiRoutes(RoutesConfig routes, ApiGuard guard) {
        this.routes = routes;
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** Starts describing a route. */
    public RouteBuilder route(HandlerType method, String path) {
        return new RouteBuilder(method, path);
    }

    /** The documented routes, in registration order. */
    public List<Route> documented() {
        return List.copyOf(documented);
    }

    /** Fluent description of one route, ended by {@link #handle}. */
    public final class RouteBuilder {
        private final HandlerType method;
        private final String path;
        private String summary = "";
        private String tag = "management";
        private boolean publicRoute;
        private Permission permission;
        private boolean csrfExempt;
        private boolean audited = true;
        private String auditResource;
        private String auditAction;
        private Optional<List<String>> queryParameters = Optional.empty();
        private BodyRefusal queryRefusal = BodyRefusal.COMMON;
        private Optional<RequestBody> requestBody = Optional.empty();
        private Optional<GatewayWideChange> gatewayWide = Optional.empty();
        private final List<Response> responses = new ArrayList<>();

        private RouteBuilder(HandlerType method, String path) {
            this.method = method;
            this.path = path;
        }

        public RouteBuilder summary(String text) {
            this.summary = text;
            return this;
        }

        public RouteBuilder tag(String name) {
            this.tag = name;
            return this;
        }

        /** Marks the route as answering without credentials (spec 4.2). */
        public RouteBuilder publicRoute() {
            this.publicRoute = true;
            return this;
        }

        /**
         * The permission this route needs, {@code resource:action} (spec 5.5). Every mutating
         * route declares one; the guard answers 403 {@code OMCP_PERMISSION_DENIED} without it.
         */
        public RouteBuilder permission(String resource, String action) {
            this.permission = new Permission(resource, action);
            return this;
        }

        /**
         * No CSRF token is needed: for endpoints called by machines or before a session exists
         * (login, CSP reports, dynamic client registration).
         */
        public RouteBuilder csrfExempt() {
            this.csrfExempt = true;
            return this;
        }

        /** The request changes nothing worth auditing even though its method is mutating (CSP reports). */
        public RouteBuilder notAudited() {
            this.audited = false;
            return this;
        }

        /**
         * Resource and action named in audit events for a route without a permission. On a route
         * whose method does not change state this also makes its requests audited (a login by
         * redirect is a {@code GET}).
         */
        public RouteBuilder audit(String resource, String action) {
            this.auditResource = resource;
            this.auditAction = action;
            return this;
        }

        /**
         * The query parameters this route takes (none when called without names): a request with any
         * other is answered 400 {@code OMCP_INVALID_PARAMETERS} naming it, after the access checks and
         * before the handler, so nothing is done. Without this call the handler reads the query
         * itself (a tool-backed route passes it to the tool, whose schema judges it).
         */
        public RouteBuilder queryParameters(String... names) {
            this.queryParameters = Optional.of(List.of(names));
            return this;
        }

        /** As {@link #queryParameters(String...)}, refused in the route's own error shape. */
        public RouteBuilder queryParameters(BodyRefusal shape, String... names) {
            this.queryRefusal = Objects.requireNonNull(shape, "shape");
            return queryParameters(names);
        }

        /**
         * The route reads a JSON object body through {@link RequestBodies} (directly or through
         * {@link JsonpExchange}): the document then lists the body and the refusals every such route
         * answers (400 {@code OMCP_INVALID_BODY}, 408, 413 {@code OMCP_BODY_TOO_LARGE}, 415
         * {@code OMCP_UNSUPPORTED_MEDIA_TYPE}), so a client generated from it knows them all. {@code schema} says
         * what the body holds, as the handler checks it ({@link BodySchema}).
         */
        public RouteBuilder jsonBody(Map<String, Object> schema) {
            this.requestBody = Optional.of(new RequestBody(List.of(JSON), true, Optional.of(schema)));
            return this;
        }

        /**
         * The route reads a body of its own format (a connector bundle, a browser's CSP report) by its
         * own rules: the document lists the body, and the route documents its refusals itself.
         */
        public RouteBuilder body(String... mediaTypes) {
            this.requestBody = Optional.of(new RequestBody(List.of(mediaTypes), false, Optional.empty()));
            return this;
        }

        /**
         * The route changes something every tenant shares ({@link GatewayWideChange}): a caller bound to a tenant is
         * answered 403 {@code code} after the access checks, before the handler reads anything, with a message that
         * says {@code what} is gateway-wide, that it may not {@code action}, and that an operator without a tenant must.
         */
        public RouteBuilder gatewayWide(String code, String what, String action) {
            this.gatewayWide = Optional.of(new GatewayWideChange(code, what, action));
            return this;
        }

        public RouteBuilder response(int status, String description) {
            responses.add(new Response(status, description, "application/json"));
            return this;
        }

        public RouteBuilder response(int status, String description, String mediaType) {
            responses.add(new Response(status, description, mediaType));
            return this;
        }

        /** Registers the route with Javalin and in the document. */
        public void handle(Handler handler) {
            if (summary.isBlank()) {
                throw new IllegalStateException("route " + method + " " + path + " needs a summary for the OpenAPI document");
            }
            if (responses.isEmpty()) {
                responses.add(new Response(200, "OK", "application/json"));
            }
            if (queryParameters.isPresent() && responses.stream().noneMatch(response -> response.status() == 400)) {
                responses.add(new Response(400, "a query parameter this route does not take (OMCP_INVALID_PARAMETERS)",
                        "application/json"));
            }
            Route route = new Route(method.name(), path, summary, tag, publicRoute, responses, permission, csrfExempt, audited,
                    auditResource != null ? auditResource : defaultAuditResource(path),
                    auditAction != null ? auditAction : defaultAuditAction(method.name(), path),
                    auditResource != null && audited, queryParameters, requestBody, gatewayWide);
            if (route.mutating() && permission == null && !publicRoute && path.startsWith("/api/")) {
                throw new IllegalStateException("route " + method + " " + path + " changes state but declares no permission; "
                        + "add .permission(resource, action) (spec 5.5: every mutating route checks a permission)");
            }
            if (publicRoute && permission != null) {
                throw new IllegalStateException("route " + method + " " + path + " is public but declares a permission; "
                        + "a public route answers without a session, so it cannot check one");
            }
            if (gatewayWide.isPresent() && (publicRoute || !route.mutating())) {
                throw new IllegalStateException("route " + method + " " + path + " is declared gateway-wide but "
                        + (publicRoute ? "is public, so its caller has no tenant to refuse" : "changes nothing"));
            }
            guard.validate(route);
            Handler queryChecked = checkingQuery(route, queryParameters, queryRefusal, handler);
            // a caller bound to a tenant learns nothing more of a gateway-wide change than that it may not make it
            Handler checked = gatewayWide.map(change -> change.guarding(route, queryChecked)).orElse(queryChecked);
            routes.addHttpHandler(method, path, ctx -> {
                try {
                    guard.handle(ctx, route, checked);
                } finally {
                    dropUnreadBody(ctx);
                }
            });
            if (method == HandlerType.GET && route.auditAlways()) {
                // a GET that acts (the OIDC callback redeems its code and starts a session): a HEAD, which
                // a link checker or prefetcher may send, must not act too, nor answer 200 for it
                routes.addHttpHandler(HandlerType.HEAD, path, ctx -> {
                    ctx.header("Allow", "GET");
                    JsonResponses.error(ctx, 405, "OMCP_METHOD_NOT_ALLOWED", "HEAD is not allowed on this path, whose GET acts"
                            + " (it signs in); send GET");
                });
            } else if (method == HandlerType.GET) {
                // HEAD is GET without the body (RFC 9110 9.3.2), so it runs the same guard and handler
                // and answers the same status; Jetty sends no body for it. Left to Javalin, a HEAD of a
                // GET route answered 200 without running either: 200 where GET is 401, 403 or 404.
                routes.addHttpHandler(HandlerType.HEAD, path, ctx -> guard.handle(ctx, route, checked));
            }
            documented.add(route);
        }
    }

    /**
     * Reads and drops what is left of a request's body once its route has answered: one that reads none (a DELETE, a
     * refusal before the body) or only part of it. Jetty closes a connection whose request content was left unread, and a
     * client still sending then meets a reset that hides the answer (the JDK's client reports that the header parser
     * received no bytes). Within {@link RequestBodies#DRAIN_LIMIT}; a larger body is not read and its connection closes.
     */
    private static void dropUnreadBody(Context ctx) {
        if (ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null) {
            RequestBodies.drainOrClose(ctx);
        }
    }

    /**
     * {@code handler} behind the refusal of a query string that does not decode (every {@code /api} route) and of
     * a query parameter the route does not take (a route that names the ones it takes).
     */
    private static Handler checkingQuery(Route route, Optional<List<String>> accepted, BodyRefusal refusal, Handler handler) {
        return ctx -> {
            // the probes (/healthz, /readyz, /metrics) read no parameter: what a scraper appends stays its own
            if ((!route.path().startsWith("/api/") || QueryParameters.decodes(ctx, route, refusal))
                    && (accepted.isEmpty() || QueryParameters.onlyAccepted(ctx, route, accepted.get(), refusal))) {
                handler.handle(ctx);
            }
        };
    }
}
