package dev.omcp.adapters.http.api;

import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.Principal;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * What the {@link ApiGuard} learned about the caller of the current request, for route handlers:
 * the principal (for tenant scoping and "runs as the session's principal"), the client address
 * after the trusted-proxy rules, and what the audit event should name.
 */
public final class ApiCaller {
    private static final String PRINCIPAL = "omcp.api.principal";
    private static final String CLIENT_IP = "omcp.api.clientIp";
    private static final String AUDIT_ACTOR = "omcp.api.auditActor";
    private static final String AUDIT_TARGET = "omcp.api.auditTarget";
    private static final String SECURE = "omcp.api.secure";
    private static final String SESSION_UNCHECKED = "omcp.api.sessionUnchecked";

    private ApiCaller() {}

    /** The caller, when the request carries a valid session (or in anonymous mode). */
    public static Optional<Principal> principal(Context ctx) {
        return Optional.ofNullable(ctx.attribute(PRINCIPAL));
    }

    /** The client address after the {@code OMCP_TRUST_PROXY} rules. */
    public static String clientIp(Context ctx) {
        String ip = ctx.attribute(CLIENT_IP);
        return ip != null ? ip : ctx.req().getRemoteAddr();
    }

    /** Names the actor of the audit event, for routes used before a session exists (login). */
    public static void auditActor(Context ctx, String actor) {
        ctx.attribute(AUDIT_ACTOR, actor);
    }

    /** Names the target of the audit event when it is not a path parameter. */
    public static void auditTarget(Context ctx, String target) {
        ctx.attribute(AUDIT_TARGET, target);
    }

    /** The audit actor a route named, if any. */
    public static Optional<String> auditActor(Context ctx) {
        return Optional.ofNullable(ctx.attribute(AUDIT_ACTOR));
    }

    /** The audit target a route named, if any. */
    public static Optional<String> auditTarget(Context ctx) {
        return Optional.ofNullable(ctx.attribute(AUDIT_TARGET));
    }

    /** For guards: records the caller. */
    public static void setPrincipal(Context ctx, Principal principal) {
        ctx.attribute(PRINCIPAL, principal);
    }

    /**
     * Whether the request reached the gateway over HTTPS: the connection itself, or
     * {@code X-Forwarded-Proto: https} from a trusted proxy. Cookies get {@code Secure} then.
     */
    public static boolean secure(Context ctx) {
        Boolean secure = ctx.attribute(SECURE);
        return secure != null ? secure : ctx.req().isSecure();
    }

    /** For guards: records whether the request came over HTTPS. */
    public static void setSecure(Context ctx, boolean secure) {
        ctx.attribute(SECURE, secure);
    }

    /**
     * Why the session cookie of the request could not be checked: the shared store did not answer
     * when its blocklist entry was read. A public route then runs without a principal, and logout
     * learns from this that there was a session it cannot end.
     */
    public static Optional<SharedStateUnavailableException> sessionUnchecked(Context ctx) {
        return Optional.ofNullable(ctx.attribute(SESSION_UNCHECKED));
    }

    /** For guards: records that the request's session cookie could not be checked, and why. */
    public static void setSessionUnchecked(Context ctx, SharedStateUnavailableException reason) {
        ctx.attribute(SESSION_UNCHECKED, reason);
    }

    /** For guards: records the client address. */
    public static void setClientIp(Context ctx, String ip) {
        ctx.attribute(CLIENT_IP, ip);
    }
}
