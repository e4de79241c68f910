package dev.omcp.adapters.http.api;

import dev.omcp.ports.identity.Principal;
import io.javalin.http.Context;
import io.javalin.http.Handler;

/**
 * Runs every route registered through {@link ApiRoutes}: decides who is calling, whether they may
 * call this route, and reports mutating requests to the audit trail. One implementation serves
 * every module, so no module can forget a check.
 */
public interface ApiGuard {

    /**
     * Checks a route at registration, for example that its permission is one the policy knows.
     *
     * @throws IllegalStateException when the route cannot be served safely
     */
    default void validate(ApiRoutes.Route route) {}

    /** Handles one request of {@code route}: checks, then {@code handler} when they pass. */
    void handle(Context ctx, ApiRoutes.Route route, Handler handler) throws Exception;

    /**
     * Reports a mutating {@code /api} request that no route took (answered 404, or 405 on a path
     * served for other methods), already answered. Every mutating request is audited whatever its
     * outcome, and no route saw this one.
     *
     * @param resource what the request was aimed at: the resource of the routes on its path, or
     *     {@code api} when there are none
     * @param action the method in lower case: nothing was done, the status says it was refused
     * @param target the path parameter of the route on its path, or "" when none
     */
    default void reportUnrouted(Context ctx, String resource, String action, String target) {}

    /**
     * No management access control: every caller is the anonymous principal. For embedders and
     * tests that run the gateway without a management plane.
     */
    static ApiGuard open() {
        return (ctx, route, handler) -> {
            ApiCaller.setPrincipal(ctx, Principal.anonymous());
            ApiCaller.setClientIp(ctx, ctx.req().getRemoteAddr());
            handler.handle(ctx);
        };
    }
}
