package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import io.javalin.http.Context;
import io.javalin.router.ParsedEndpoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Answers a request that no route took. When its path is served for other methods, 405
 * {@code OMCP_METHOD_NOT_ALLOWED} with an {@code Allow} header naming them (RFC 9110 15.5.6, 10.2.1);
 * otherwise 404 {@code OMCP_NOT_FOUND}. {@code OPTIONS} on a served path (not a CORS preflight, which
 * the server answers before routing) is 204 with the same {@code Allow} (RFC 9110 9.3.7). A mutating request under {@code /api} is then reported to
 * the {@link ApiGuard}, since the audit covers every one whatever its outcome.
 *
 * <p>Both answers come before authentication, as the 404 always did: which paths and methods exist
 * is no secret, {@code GET /api/openapi.json} lists them to anyone. Only routes registered through
 * {@link ApiRoutes} count, so {@code /mcp} keeps the answers its transport gives.
 */
final class UnroutedRequests {
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    /** The order methods are named in, so every answer for one path reads the same. */
    private static final List<String> METHOD_ORDER = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final ApiGuard guard;
    private final Supplier<List<ParsedEndpoint>> endpoints;
    private final Supplier<List<ApiRoutes.Route>> routes;
    private volatile List<Served> served;

    /** A documented route with Javalin's matcher for its path. */
    private record Served(ParsedEndpoint endpoint, ApiRoutes.Route route) {}

    /**
     * @param endpoints every endpoint Javalin serves, read once the server is built
     * @param routes the routes registered through {@link ApiRoutes}, read at the same time
     */
    UnroutedRequests(ApiGuard guard, Supplier<List<ParsedEndpoint>> endpoints, Supplier<List<ApiRoutes.Route>> routes) {
        this.guard = guard;
        this.endpoints = endpoints;
        this.routes = routes;
    }

    /** Answers {@code ctx}, which matched no route. */
    void answer(Context ctx) {
        String path = ctx.path();
        String method = ctx.method().name();
        List<Served> onPath = served().stream().filter(s -> s.endpoint().matches(path)).toList();
        if (onPath.isEmpty()) {
            JsonResponses.error(ctx, 404, "OMCP_NOT_FOUND", "no route " + method + " " + path + "; GET /api/openapi.json lists every route");
            report(ctx, method, "api", "");
            return;
        }
        String allowed = String.join(", ", allowedMethods(onPath));
        ctx.header("Allow", allowed);
        if (method.equals("OPTIONS")) {
            ctx.status(204);
            return;
        }
        JsonResponses.error(ctx, 405, "OMCP_METHOD_NOT_ALLOWED", method + " is not allowed on this path; it answers " + allowed
                + " (the Allow header; GET /api/openapi.json lists every route)");
        // The fixed path wins over a parameter that would match it too (/api/health/thresholds over
        // /api/health/<service>), as it does when routing.
        Served nearest = onPath.stream().min(Comparator.comparingInt(s -> s.route().pathParameters().size())).orElseThrow();
        Map<String, String> parameters = nearest.endpoint().extractPathParams(path);
        String target = nearest.route().pathParameters().stream().findFirst().map(parameters::get).orElse("");
        report(ctx, method, nearest.route().auditedResource(), target);
    }

    private void report(Context ctx, String method, String resource, String target) {
        String path = ctx.path();
        if (MUTATING.contains(method) && (path.equals("/api") || path.startsWith("/api/"))) {
            guard.reportUnrouted(ctx, resource, method.toLowerCase(Locale.ROOT), target);
        }
    }

    /**
     * The methods of the routes on the path, with HEAD wherever GET is (Javalin answers it as GET),
     * and OPTIONS, which {@link #answer} serves on every such path.
     */
    private static List<String> allowedMethods(List<Served> onPath) {
        List<String> methods = new ArrayList<>();
        for (Served served : onPath) {
            methods.add(served.route().method());
            if (served.route().method().equals("GET")) {
                methods.add("HEAD");
            }
        }
        methods.add("OPTIONS");
        return methods.stream().distinct()
                .sorted(Comparator.comparingInt(m -> METHOD_ORDER.contains(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.size()))
                .toList();
    }

    /** Pairs each documented route with the endpoint Javalin built for it, once (routes are fixed when serving). */
    private List<Served> served() {
        List<Served> known = served;
        if (known == null) {
            List<Served> pairs = new ArrayList<>();
            List<ApiRoutes.Route> documented = routes.get();
            for (ParsedEndpoint endpoint : endpoints.get()) {
                for (ApiRoutes.Route route : documented) {
                    if (route.method().equals(endpoint.endpoint.method.name()) && route.path().equals(endpoint.endpoint.path)) {
                        pairs.add(new Served(endpoint, route));
                    }
                }
            }
            known = List.copyOf(pairs);
            served = known;
        }
        return known;
    }
}
