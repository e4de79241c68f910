package dev.omcp.adapters.http.access;

import dev.omcp.adapters.http.api.AccessRefusals;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.sdk.text.LogPace;
import dev.omcp.adapters.http.api.ManagementIdentity;
import dev.omcp.adapters.http.auth.AuthMode;
import dev.omcp.adapters.http.auth.SessionCookies;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditTrail;
import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.LogField;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces the management plane's access rules for every route of every module (spec 5.1, 5.5,
 * 4.3, 7.1, 7.4), in this order:
 * <ol>
 *   <li>the client address and HTTPS flag, after the trusted-proxy rules;</li>
 *   <li>the caller: the anonymous principal in anonymous mode, else the principal of a valid
 *       {@code omcp_session} cookie (signature, expiry and the blocklist, on every request); a
 *       request whose {@code Authorization: Bearer} header lets it skip CSRF is never run as the
 *       session of a cookie it also carries, since the management API takes no bearer credential;</li>
 *   <li>401 {@code OMCP_AUTH_REQUIRED} for a non-public route without a valid session;</li>
 *   <li>403 {@code OMCP_CSRF_MISMATCH} for a mutating request without the CSRF token of its session
 *       ({@link CsrfProtection});</li>
 *   <li>403 {@code OMCP_PERMISSION_DENIED} (or 503 when the policy engine cannot decide) for a
 *       route whose permission the caller lacks;</li>
 *   <li>the handler;</li>
 *   <li>one audit event per mutating request, whatever its outcome, before the response is sent.</li>
 * </ol>
 * A mutating request no route took (404 or 405) is reported too ({@link #reportUnrouted}), with the
 * same actor rule: the session's principal, else {@code unauthenticated}.
 */
public final class ManagementGuard implements ApiGuard, ManagementIdentity {
    private static final Logger LOG = LoggerFactory.getLogger(ManagementGuard.class);
    private static final String RESOLVED = "omcp.guard.resolved";

    private final AuthMode mode;
    private final SessionCookies cookies;
    private final SessionAuthority sessions;
    private final AccessPolicy policy;
    private final CsrfProtection csrf;
    private final TrustedProxies proxies;
    private final AuditTrail audit;
    /** During a policy outage every request would log a line: one a minute, counting the refusals in between. */
    private final LogPace outageLines;

    public ManagementGuard(AuthMode mode, SessionCookies cookies, SessionAuthority sessions, AccessPolicy policy,
            CsrfProtection csrf, TrustedProxies proxies, AuditTrail audit) {
        this(mode, cookies, sessions, policy, csrf, proxies, audit, Clock.systemUTC());
    }

    /** As above, with the clock that paces the {@code event=policy-unavailable} lines. */
    public ManagementGuard(AuthMode mode, SessionCookies cookies, SessionAuthority sessions, AccessPolicy policy,
            CsrfProtection csrf, TrustedProxies proxies, AuditTrail audit, Clock clock) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.cookies = Objects.requireNonNull(cookies, "cookies");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.csrf = Objects.requireNonNull(csrf, "csrf");
        this.proxies = Objects.requireNonNull(proxies, "proxies");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.outageLines = new LogPace(clock, Duration.ofMinutes(1));
    }

    @Override
    public void validate(ApiRoutes.Route route) {
        if (route.permission() != null && !policy.catalog().contains(route.permission())) {
            throw new IllegalStateException("route " + route.method() + " " + route.path() + " declares permission "
                    + route.permission() + ", which is not in the permission catalog; add it to BuiltinPolicy.ALL "
                    + "so roles can grant it and /api/me can list it");
        }
    }

    @Override
    public String mode() {
        return mode.wireName();
    }

    @Override
    public Optional<Principal> resolve(Context ctx) {
        if (Boolean.TRUE.equals(ctx.attribute(RESOLVED))) {
            return ApiCaller.principal(ctx);
        }
        Optional<Principal> principal = authenticate(ctx);
        principal.ifPresent(p -> ApiCaller.setPrincipal(ctx, p));
        ctx.attribute(RESOLVED, Boolean.TRUE);
        return principal;
    }

    @Override
    public void handle(Context ctx, ApiRoutes.Route route, Handler handler) throws Exception {
        // a handler's further permission check meets the same outage: its lines share this pacing
        AccessRefusals.paceOutageLinesWith(ctx, outageLines);
        boolean secure = locateClient(ctx);
        Optional<Principal> principal;
        try {
            principal = resolve(ctx);
        } catch (SharedStateUnavailableException e) {
            // The session's blocklist entry cannot be read: never taken as "not revoked". A public route
            // (probes, login) runs without the session, told why (logout then says it could not end it);
            // any other is refused.
            if (!route.publicRoute()) {
                AccessRefusals.sharedStateUnavailable(ctx, e);
                if (route.reportsToAudit()) {
                    record(ctx, route, Optional.empty(), null);
                }
                return;
            }
            ApiCaller.setSessionUnchecked(ctx, e);
            principal = Optional.empty();
        }
        Optional<String> sessionId = principal.flatMap(Principal::sessionId);
        if (!route.csrfExempt()) {
            // Exempt routes need no token, and login sets the one of the session it opens.
            csrf.ensureCookie(ctx, sessionId, secure);
        }
        Exception failure = null;
        Handler action = route.reportsToAudit() && route.mutating()
                ? failClosed(ctx.method().name(), ctx.path(), principal, handler)
                : handler;
        try {
            if (principal.isEmpty() && !route.publicRoute()) {
                unauthenticated(ctx);
            } else if (route.mutating() && !route.csrfExempt() && !csrf.accepts(ctx, sessionId, secure)) {
                JsonResponses.error(ctx, 403, "OMCP_CSRF_MISMATCH", CsrfProtection.refusal(secure));
            } else if (route.permission() != null) {
                authorize(ctx, principal.orElseThrow(), route.permission(), action);
            } else {
                action.handle(ctx);
            }
        } catch (Exception e) {
            failure = e;
            throw e;
        } finally {
            if (route.reportsToAudit()) {
                record(ctx, route, principal, failure);
            }
        }
    }

    /**
     * Runs {@code handler} only while the audit trail can record: a change that cannot be audited is
     * refused before it is made (503), and the refusal's own entry retries the store. Checked just
     * before the handler, after authentication, CSRF and permission refusals, which change nothing.
     */
    private Handler failClosed(String method, String path, Optional<Principal> principal, Handler handler) {
        return ctx -> {
            Optional<String> reason = audit.unavailable();
            if (reason.isEmpty()) {
                handler.handle(ctx);
                return;
            }
            LOG.error("event=audit-unavailable method={} path=\"{}\" actor=\"{}\" outcome=refused reason=\"{}\"", method,
                    LogField.of(path), principal.map(Principal::id).map(IdentityText::of).orElse("unauthenticated"),
                    LogField.of(reason.get()));
            // the reason may name a file: it stays in the operator's log
            JsonResponses.error(ctx, 503, "OMCP_AUDIT_UNAVAILABLE", "the audit log cannot record changes right now, so this"
                    + " request was refused and nothing was changed; retry later, and tell an operator (the gateway log says"
                    + " why: event=audit-failed)");
        };
    }

    @Override
    public void reportUnrouted(Context ctx, String resource, String action, String target) {
        locateClient(ctx);
        Optional<Principal> principal = resolve(ctx);
        String actor = principal.map(Principal::id).map(IdentityText::of).orElse("unauthenticated");
        write(new AuditEvent(actor, principal.map(Principal::tenant).orElse(""), resource, action, ctx.method().name(), ctx.path(),
                ctx.statusCode(), ApiCaller.clientIp(ctx), pathTarget(target)));
    }

    /**
     * A path parameter as the audit entry's target: printable and bounded ({@link IdentityText}). It
     * arrives decoded and unchecked (a route that refuses it as invalid, a 405, a name no plugin has),
     * so it may hold control characters or be kilobytes long; every valid name reads as itself.
     */
    private static String pathTarget(String value) {
        return IdentityText.of(value);
    }

    /** Records the client address and HTTPS flag after the trusted-proxy rules; returns the flag. */
    private boolean locateClient(Context ctx) {
        String peer = ctx.req().getRemoteAddr();
        List<String> forwardedFor = Collections.list(ctx.req().getHeaders("X-Forwarded-For"));
        ApiCaller.setClientIp(ctx, proxies.clientIp(peer, forwardedFor));
        // every line: a proxy may add its own after the client's (ctx.header reads only the first)
        List<String> forwardedProto = Collections.list(ctx.req().getHeaders("X-Forwarded-Proto"));
        boolean secure = proxies.secure(ctx.req().isSecure(), peer, forwardedFor, forwardedProto);
        ApiCaller.setSecure(ctx, secure);
        return secure;
    }

    private Optional<Principal> authenticate(Context ctx) {
        if (mode == AuthMode.ANONYMOUS) {
            return Optional.of(Principal.anonymous());
        }
        if (csrf.bypassedByBearer(ctx)) {
            // The bearer header let the request skip CSRF; running it as the cookie's session would let a
            // page that can add that header ride the cookie.
            return Optional.empty();
        }
        String cookie = ctx.cookie(SessionCookies.NAME);
        if (cookie == null) {
            return Optional.empty();
        }
        return cookies.decode(cookie).flatMap(claims -> sessions.check(claims) instanceof SessionCheck.Valid valid
                ? Optional.of(valid.principal()) : Optional.empty());
    }

    private void unauthenticated(Context ctx) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", "OMCP_AUTH_REQUIRED");
        String error;
        if (csrf.bypassedByBearer(ctx)) {
            error = "this request carries Authorization: Bearer, so it skips the CSRF check and the session cookie that came"
                    + " with it is not used; the management API takes no bearer credential: send the session cookie without the"
                    + " Authorization header, and the " + CsrfProtection.HEADER + " header on changes";
        } else {
            error = ManagementIdentity.noSessionError(mode.wireName());
        }
        body.put("error", error);
        body.put("mode", mode.wireName());
        JsonResponses.json(ctx, 401, body);
    }

    private void authorize(Context ctx, Principal principal, Permission permission, Handler handler) throws Exception {
        AccessDecision decision = policy.decide(principal, permission);
        switch (decision) {
            case AccessDecision.Allowed allowed -> handler.handle(ctx);
            case AccessDecision.Denied denied -> AccessRefusals.permissionDenied(ctx, permission, denied.have());
            case AccessDecision.Unavailable unavailable ->
                AccessRefusals.policyUnavailable(ctx, principal, permission, unavailable.reason());
        }
    }

    private void record(Context ctx, ApiRoutes.Route route, Optional<Principal> principal, Exception failure) {
        int status;
        if (failure instanceof HttpResponseException response) {
            status = response.getStatus();
        } else if (failure instanceof SharedStateUnavailableException) {
            status = 503; // what the server's exception mapping answers for it
        } else if (failure != null) {
            status = 500;
        } else {
            status = ctx.statusCode();
        }
        // the one place an actor enters the audit: a user name or an OIDC subject may hold anything
        String actor = IdentityText.of(ApiCaller.auditActor(ctx).orElseGet(() -> principal.map(Principal::id).orElse("unauthenticated")));
        String target = ApiCaller.auditTarget(ctx).orElseGet(() -> {
            List<String> names = route.pathParameters();
            if (names.isEmpty()) {
                return "";
            }
            String value = ctx.pathParamMap().get(names.get(0));
            return value == null ? "" : pathTarget(value);
        });
        write(new AuditEvent(actor, principal.map(Principal::tenant).orElse(""), route.auditedResource(),
                route.auditedAction(), route.method(), ctx.path(), status, ApiCaller.clientIp(ctx), target));
    }

    private void write(AuditEvent event) {
        try {
            audit.record(event);
        } catch (RuntimeException e) {
            // The request already took effect; it cannot be undone, so the failure is reported loudly with
            // every field of the event (this line is then its only record), and later changes are refused
            // until the trail records again (failClosed).
            // The path and target come from the request (a path parameter arrives decoded, %22 as a quote), the
            // tenant from a users file or an identity provider: escaped, none of them can forge another field.
            LOG.error("event=audit-failed method={} path=\"{}\" status={} actor=\"{}\" tenant=\"{}\" resource={} action={}"
                    + " target=\"{}\" ip={} reason=\"{}\"", event.method(), LogField.of(event.path()), event.status(), event.actor(),
                    LogField.of(event.tenant()), event.resource(), event.action(), LogField.of(event.target()), event.ip(),
                    LogField.of(e.getMessage()), e);
        }
    }
}
