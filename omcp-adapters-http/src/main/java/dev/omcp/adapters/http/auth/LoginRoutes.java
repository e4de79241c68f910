package dev.omcp.adapters.http.auth;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyRefusal;
import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.auth.TenantShareFullException;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.LogField;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Login, logout and the session blocklist: {@code POST /api/auth/login}, {@code POST
 * /api/auth/logout}, {@code GET|POST /api/auth/revocations} (spec 4.2, 4.3, 5.2, DECISIONS.md).
 *
 * <p>Bodies follow the management API's rules ({@link JsonpExchange}): 415 when not JSON, 413 over
 * 1 MiB, 400 {@code OMCP_INVALID_BODY} for invalid JSON, duplicate keys, nesting over 64 or an
 * unknown field; 400 {@code OMCP_BAD_REQUEST} when a field's value is wrong. A login body with a
 * duplicate {@code password} is refused rather than read with one of its values winning. No
 * refusal echoes a value of the body, so a password never comes back in an answer.
 */
public final class LoginRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(LoginRoutes.class);
    private static final Set<String> LOGIN_FIELDS = Set.of("username", "password");
    private static final Set<String> REVOCATION_FIELDS = Set.of("sid", "sub", "reason");
    private static final int MAX_USERNAME = 256;
    private static final int MAX_PASSWORD = 1024;
    /** The body of {@code POST /api/auth/login}, as {@link #login} reads it. */
    static final Map<String, Object> LOGIN_BODY = BodySchema.object("a password login")
            .requiredProperty("username", BodySchema.string("the account's name", 1, MAX_USERNAME))
            .requiredProperty("password", BodySchema.string("the account's password; never echoed in an answer", 1, MAX_PASSWORD))
            .build();
    /** The body of {@code POST /api/auth/revocations}, as {@link #revoke} reads it: exactly one of sid and sub. */
    static final Map<String, Object> REVOCATION_BODY = BodySchema.object("what to revoke: one session (sid) or every session "
                    + "of a subject issued so far (sub), never both")
            .property("sid", BodySchema.string("a session id, as GET /api/auth/revocations and the audit trail name it; no "
                    + "control characters", 1, Revocation.MAX_TEXT))
            .property("sub", BodySchema.string("a subject (user id); no control characters", 1, Revocation.MAX_TEXT))
            .property("reason", BodySchema.string("why, kept with the revocation", 0, Revocation.MAX_TEXT))
            .keyword("oneOf", List.of(Map.of("required", List.of("sid")), Map.of("required", List.of("sub"))))
            .build();
    /** The audit target of a right password refused because SCIM deprovisioned the user (docs/scim.md). */
    public static final String DEPROVISIONED_TARGET = "scim-deprovisioned";
    /** The audit actor of a refused login whose username names no user. */
    static final String UNKNOWN_USER = "unknown-user";

    private final AuthMode mode;
    private final Optional<PasswordLogin> login;
    private final SessionAuthority sessions;
    private final SessionCookies cookies;
    private final CsrfProtection csrf;
    private final SessionRevocations revocations;
    private final AddressTableFullWarnings tableFull;

    /**
     * @param login the password login; empty outside basic mode
     * @param cookies the cookie codec (in anonymous mode it only serves logout, which then has no
     *     session to end)
     * @param csrf hands the page the CSRF token of the session a login opens, and clears it at logout
     */
    public LoginRoutes(AuthMode mode, Optional<PasswordLogin> login, SessionAuthority sessions, SessionCookies cookies,
            CsrfProtection csrf, SessionRevocations revocations) {
        this(mode, login, sessions, cookies, csrf, revocations, Clock.systemUTC());
    }

    /**
     * @param clock paces the warning of a full per-address login counter (one line a minute at most)
     */
    public LoginRoutes(AuthMode mode, Optional<PasswordLogin> login, SessionAuthority sessions, SessionCookies cookies,
            CsrfProtection csrf, SessionRevocations revocations, Clock clock) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.login = Objects.requireNonNull(login, "login");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.cookies = Objects.requireNonNull(cookies, "cookies");
        this.csrf = Objects.requireNonNull(csrf, "csrf");
        this.revocations = Objects.requireNonNull(revocations, "revocations");
        this.tableFull = new AddressTableFullWarnings(clock);
    }

    /** Registers the routes. */
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.POST, "/api/auth/login").tag("auth").publicRoute().csrfExempt().audit("auth", "login").jsonBody(LOGIN_BODY)
                .queryParameters()
                .summary("Password login (basic mode): body {username, password}; sets the omcp_session cookie")
                .response(200, "{ok: true, user: {sub, name, roles}} and the session cookie")
                .response(400, "the body is not {username, password} (OMCP_INVALID_BODY, OMCP_BAD_REQUEST), or this mode has "
                        + "no password login (OMCP_LOGIN_NOT_AVAILABLE)")
                .response(401, "invalid credentials")
                .response(429, "the account is locked (OMCP_LOGIN_LOCKED), more than 20 attempts per minute from this address "
                        + "(OMCP_LOGIN_RATE_LIMIT), or the per-address counter is full and this address is new "
                        + "(OMCP_LOGIN_ADDRESS_TABLE_FULL); see Retry-After")
                .response(500, "the password was right but the account's session does not fit in the session cookie "
                        + "(OMCP_SESSION_TOO_LARGE: a name, tenant or role list too long, or more than 64 roles); no cookie is set")
                .response(503, "too many password verifications in progress; see Retry-After")
                .handle(this::login);
        // Not CSRF-exempt: a page of another site must not be able to sign the user out.
        routes.route(HandlerType.POST, "/api/auth/logout").tag("auth").publicRoute().audit("auth", "logout").queryParameters()
                .summary("Ends the session: revokes its sid and clears the cookies; needs the X-CSRF-Token header")
                .response(204, "logged out (also when there was no session to end)")
                .response(403, "the X-CSRF-Token header does not hold the session's token (OMCP_CSRF_MISMATCH); the session "
                        + "stays valid")
                .response(503, "the session store (OMCP_REDIS_URL) does not answer: the cookies are cleared, but the session could "
                        + "not be revoked and a copy of its cookie stays valid until it expires (OMCP_SESSION_NOT_ENDED); revoke the "
                        + "subject's sessions with POST /api/auth/revocations {sub} once the store answers")
                .response(507, "the session blocklist is full: the cookies are cleared, but the session could not be revoked "
                        + "(OMCP_BLOCKLIST_FULL); rotating the session secret voids every session at once")
                .handle(this::logout);
        routes.route(HandlerType.GET, "/api/auth/revocations").tag("auth").permission("users", "delete").queryParameters()
                .summary("The session blocklist: revoked sids and subjects still in force, and when every session was "
                        + "voided at once, if that is still in force; a caller with a tenant sees that tenant's entries only")
                .response(200, "{revocations: [{sid | sub, reason, revokedAt, revokedBy, tenant}], allSessionsRevokedAt: time or null}")
                .handle(this::listRevocations);
        routes.route(HandlerType.POST, "/api/auth/revocations").tag("auth").permission("users", "delete").queryParameters()
                .jsonBody(REVOCATION_BODY)
                .summary("Revokes one session ({sid, reason}) or every session of a subject issued so far ({sub, reason}); "
                        + "a caller with a tenant revokes only sessions of that tenant")
                .response(201, "the revocation, with the tenant it applies to (empty: every tenant)")
                .response(400, "the body is not JSON or has an unknown field (OMCP_INVALID_BODY), or names neither or both of "
                        + "sid and sub, or a value is too long (OMCP_BAD_REQUEST)")
                .response(500, "the revocation is in force but could not be saved to OMCP_AUTH_REVOCATION_FILE, so a restart "
                        + "would forget it (OMCP_REVOCATION_NOT_SAVED); fix the file and send it again")
                .response(507, "the blocklist has no room for the entry: it holds as many as admins may fill (OMCP_BLOCKLIST_FULL), or "
                        + "the caller's tenant holds its whole share of it (OMCP_BLOCKLIST_TENANT_SHARE_FULL); nothing is revoked")
                .handle(this::revoke);
    }

    private void login(Context ctx) throws IOException {
        // Whatever the answer: a success carries the user and sets the session cookie, and no cache
        // between the browser and the gateway may keep or replay either (as on the OIDC routes).
        ctx.header("Cache-Control", "no-store");
        // Answered before the body is read: whatever it holds, this mode has no password login, and
        // where to sign in instead is the useful answer.
        if (mode != AuthMode.BASIC || login.isEmpty()) {
            JsonResponses.error(ctx, 400, "OMCP_LOGIN_NOT_AVAILABLE", mode == AuthMode.OIDC
                    ? "this gateway signs in through its identity provider: open GET /api/auth/oidc/login"
                    : "this gateway runs without authentication (OMCP_AUTH=anonymous); no login is needed");
            return;
        }
        Optional<JsonObject> body = JsonpExchange.object(ctx, BodyRefusal.COMMON, "OMCP_BAD_REQUEST");
        if (body.isEmpty() || !JsonpExchange.onlyFields(ctx, body.get(), LOGIN_FIELDS)) {
            return;
        }
        if (!(body.get().get("username") instanceof JsonString usernameValue)
                || !(body.get().get("password") instanceof JsonString passwordValue)) {
            JsonResponses.error(ctx, 400, "OMCP_BAD_REQUEST", "the body must be JSON {\"username\": \"...\", \"password\": \"...\"}");
            return;
        }
        String username = usernameValue.getString();
        String password = passwordValue.getString();
        if (username.isEmpty() || username.length() > MAX_USERNAME || password.isEmpty() || password.length() > MAX_PASSWORD) {
            JsonResponses.error(ctx, 400, "OMCP_BAD_REQUEST", "username must be 1-" + MAX_USERNAME + " and password 1-"
                    + MAX_PASSWORD + " characters");
            return;
        }
        LoginResult result = login.get().login(username, password, ApiCaller.clientIp(ctx));
        ApiCaller.auditActor(ctx, auditActor(username, result));
        switch (result) {
            case LoginResult.LoggedIn loggedIn -> {
                SessionClaims claims = loggedIn.session();
                SessionCookies.Issue cookie = cookies.issue(claims, sessions.lifetime(), ApiCaller.secure(ctx));
                if (cookie instanceof SessionCookies.Issue.TooLarge tooLarge) {
                    LoginRefusals.sessionTooLarge(ctx, claims.sub(), tooLarge.problem());
                    return;
                }
                ctx.res().addHeader("Set-Cookie", ((SessionCookies.Issue.Issued) cookie).setCookie());
                // a new session, a new token: one kept from before this login no longer matches
                csrf.issueForSession(ctx, claims.sid(), ApiCaller.secure(ctx));
                Map<String, Object> user = new LinkedHashMap<>();
                user.put("sub", claims.sub());
                user.put("name", claims.name());
                user.put("roles", claims.roles());
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("ok", true);
                answer.put("user", user);
                JsonResponses.json(ctx, 200, answer);
                LOG.info("event=login outcome=ok principal=\"{}\" ip={}", IdentityText.of(claims.sub()), ApiCaller.clientIp(ctx));
            }
            case LoginResult.InvalidCredentials invalid -> invalidCredentials(ctx);
            case LoginResult.Deprovisioned deprovisioned -> {
                // the client learns no more than from a wrong password; the audit entry and the log say why
                ApiCaller.auditTarget(ctx, DEPROVISIONED_TARGET);
                LOG.info("event=login outcome=refused reason=scim-deprovisioned principal=\"{}\" detail=\"{}\" ip={}",
                        IdentityText.of(username), LogField.of(deprovisioned.reason()), ApiCaller.clientIp(ctx));
                invalidCredentials(ctx);
            }
            case LoginResult.AccountLocked locked -> LoginRefusals.tooMany(ctx, locked.retryAfter(), "OMCP_LOGIN_LOCKED",
                    "too many failed logins for this account; try again after the Retry-After seconds");
            case LoginResult.TooManyAttempts limited -> LoginRefusals.tooMany(ctx, limited.retryAfter(), "OMCP_LOGIN_RATE_LIMIT",
                    "more than 20 login attempts per minute from this address; try again after the Retry-After seconds");
            case LoginResult.AddressTableFull full -> {
                tableFull.refused(full.capacity());
                LoginRefusals.addressTableFull(ctx, full.retryAfter());
            }
            case LoginResult.Busy busy -> {
                countRefusal(ctx, "OMCP_LOGIN_BUSY");
                ctx.header("Retry-After", Long.toString(LoginRefusals.seconds(busy.retryAfter())));
                JsonResponses.error(ctx, 503, "OMCP_LOGIN_BUSY",
                        "too many password checks are running; try again after the Retry-After seconds");
            }
        }
    }

    /** 401 {@code OMCP_INVALID_CREDENTIALS}: a wrong password, an unknown user, or a deprovisioned one alike. */
    private static void invalidCredentials(Context ctx) {
        countRefusal(ctx, "OMCP_INVALID_CREDENTIALS");
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("code", "OMCP_INVALID_CREDENTIALS");
        answer.put("error", "invalid credentials");
        JsonResponses.json(ctx, 401, answer);
    }

    /**
     * A refused login names its username in the audit only when that is a user: otherwise it may be a
     * password typed into the wrong field, and the hash-chained log cannot be edited afterwards. Spec
     * 3.3 makes the username the actor of a locked account's 429, whether or not the account exists.
     */
    private String auditActor(String username, LoginResult result) {
        boolean named = result instanceof LoginResult.LoggedIn || result instanceof LoginResult.AccountLocked
                || login.orElseThrow().isKnownUser(username);
        // as typed: the audit writes every actor in its printable, bounded form (IdentityText)
        return named ? username : UNKNOWN_USER;
    }

    /**
     * Marks the request for {@code omcp_login_refusals}: the three 429s share the route and the
     * status, so only the code tells them apart at {@code /metrics} (docs/mcp.md).
     */
    private static void countRefusal(Context ctx, String code) {
        ctx.attribute(GatewayMetrics.LOGIN_REFUSAL_ATTRIBUTE, code);
    }

    private void logout(Context ctx) {
        // it clears the session cookie: a cached copy of this answer must not stand in for it
        ctx.header("Cache-Control", "no-store");
        Optional<SessionClaims> claims = sessionToEnd(ctx);
        Optional<NotEnded> notEnded = ApiCaller.sessionUnchecked(ctx).map(NotEnded::storeDown);
        if (claims.isPresent()) {
            ApiCaller.auditActor(ctx, claims.get().sub());
            if (notEnded.isEmpty()) {
                notEnded = end(claims.get());
            }
        }
        // spec 4.2: logout clears the cookies, even when the server could not end the session
        ctx.res().addHeader("Set-Cookie", SessionCookies.clearCookie(ApiCaller.secure(ctx)));
        csrf.clearCookie(ctx, ApiCaller.secure(ctx));
        if (claims.isEmpty() || notEnded.isEmpty()) {
            ctx.status(204);
            return;
        }
        // Not a 204: a copy of the cookie (another tab's jar, a stolen one) still works, and the user and
        // the operator must learn that and how to end it.
        NotEnded why = notEnded.get();
        LOG.error("event=logout-revocation-failed principal=\"{}\" reason=\"{}\" effect=\"the cookies were cleared but the session"
                + " stays valid until it expires\" hint=\"{}\"", IdentityText.of(claims.get().sub()), LogField.of(why.reason()),
                why.operatorHint());
        JsonResponses.error(ctx, why.status(), why.code(), "you are logged out in this browser, but the session could not be"
                + " ended on the server because " + why.cause() + ": a copy of the session cookie stays valid until it"
                + " expires. " + why.remedy());
    }

    /** Why a logout could not end its session on the server, and what the user and the operator are told. */
    private record NotEnded(int status, String code, String cause, String remedy, String reason, String operatorHint) {
        static NotEnded storeDown(SharedStateUnavailableException e) {
            return new NotEnded(503, "OMCP_SESSION_NOT_ENDED", "the session store is unavailable",
                    "Once the store is back, an administrator can end every session of this user with"
                            + " POST /api/auth/revocations {\"sub\": \"<user>\"}",
                    e.getMessage(), "once the store answers, revoke the subject's sessions with POST /api/auth/revocations {sub}");
        }

        static NotEnded blocklistFull(IllegalStateException e) {
            return new NotEnded(507, "OMCP_BLOCKLIST_FULL", "the server's session blocklist is full",
                    "Entries are freed as the sessions they void expire; until then an administrator can void every"
                            + " session at once by rotating the session secret",
                    e.getMessage(), "rotate the session secret (OMCP_SESSION_SECRET) to void every session at once; entries"
                            + " are freed as the sessions they void expire");
        }
    }

    /**
     * The session this logout ends: the one the guard ran the request as or, when the guard could not
     * read the blocklist of the cookie's session, that correctly signed cookie's session. A bearer
     * request, which skipped CSRF, has neither even when a cookie came along, so it cannot end the
     * cookie's session.
     */
    private Optional<SessionClaims> sessionToEnd(Context ctx) {
        Optional<SessionClaims> cookie = Optional.ofNullable(ctx.cookie(SessionCookies.NAME)).flatMap(cookies::decode);
        if (ApiCaller.sessionUnchecked(ctx).isPresent()) {
            return cookie;
        }
        Optional<String> sid = ApiCaller.principal(ctx).flatMap(Principal::sessionId);
        return cookie.filter(decoded -> sid.isPresent() && decoded.sid().equals(sid.get()));
    }

    /** Revokes the session's sid when it is still valid; why not, when the store did not answer or had no room. */
    private Optional<NotEnded> end(SessionClaims claims) {
        try {
            if (sessions.check(claims) instanceof SessionCheck.Valid) {
                sessions.close(claims);
            }
            return Optional.empty();
        } catch (SharedStateUnavailableException e) {
            return Optional.of(NotEnded.storeDown(e));
        } catch (IllegalStateException e) {
            return Optional.of(NotEnded.blocklistFull(e));
        } catch (UncheckedIOException e) {
            // the sid is revoked, but only until a restart: the user is logged out either way, the operator must learn it
            LOG.error("event=logout-revocation-not-saved principal=\"{}\" effect=\"the session is ended, but a restart before it"
                    + " expires would make a copy of its cookie valid again\" hint=\"fix OMCP_AUTH_REVOCATION_FILE, then revoke the"
                    + " subject's sessions with POST /api/auth/revocations {sub}\"", IdentityText.of(claims.sub()), e);
            return Optional.empty();
        }
    }

    private void listRevocations(Context ctx) {
        List<Map<String, Object>> entries = new ArrayList<>();
        Principal viewer = ApiCaller.principal(ctx).orElse(Principal.anonymous());
        for (Revocation revocation : revocations.current(viewer)) {
            entries.add(describe(revocation));
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("revocations", entries);
        // every session issued up to this time is void whatever the entries say (a shared store that lost
        // its data): without it the list would look as if those sessions were still good
        answer.put("allSessionsRevokedAt", revocations.allSessionsRevokedAt().map(Instant::toString).orElse(null));
        JsonResponses.json(ctx, 200, answer);
    }

    private void revoke(Context ctx) throws IOException {
        Optional<JsonObject> read = JsonpExchange.object(ctx, BodyRefusal.COMMON, "OMCP_BAD_REQUEST");
        if (read.isEmpty() || !JsonpExchange.onlyFields(ctx, read.get(), REVOCATION_FIELDS)) {
            return;
        }
        JsonObject body = read.get();
        boolean sid = body.containsKey("sid");
        boolean sub = body.containsKey("sub");
        if (sid == sub || !(body.get(sid ? "sid" : "sub") instanceof JsonString named)
                || (body.containsKey("reason") && !(body.get("reason") instanceof JsonString))) {
            JsonResponses.error(ctx, 400, "OMCP_BAD_REQUEST", "name exactly one of sid and sub, as a string, and an optional string reason");
            return;
        }
        RevocationTarget target = sid ? RevocationTarget.SID : RevocationTarget.SUB;
        String value = named.getString();
        String reason = body.get("reason") instanceof JsonString text ? text.getString() : "";
        ApiCaller.auditTarget(ctx, (sid ? "sid:" : "sub:") + IdentityText.of(value));
        Principal by = ApiCaller.principal(ctx).orElse(Principal.anonymous());
        Revocation revocation;
        try {
            revocation = revocations.revoke(target, value, reason, by);
        } catch (IllegalArgumentException e) {
            JsonResponses.error(ctx, 400, "OMCP_BAD_REQUEST", e.getMessage());
            return;
        } catch (TenantShareFullException e) {
            tenantShareFull(ctx, e, by);
            return;
        } catch (IllegalStateException e) {
            JsonResponses.error(ctx, 507, "OMCP_BLOCKLIST_FULL", e.getMessage());
            return;
        } catch (UncheckedIOException e) {
            // the store took the entry but its file (OMCP_AUTH_REVOCATION_FILE) did not: in force until a restart
            LOG.error("event=revocation-not-saved target={} by=\"{}\" effect=\"in force on this gateway until it restarts\"",
                    target.name().toLowerCase(java.util.Locale.ROOT), IdentityText.of(by.id()), e);
            JsonResponses.error(ctx, 500, "OMCP_REVOCATION_NOT_SAVED", "the revocation is in force on this gateway but could not be"
                    + " saved to its revocation file, so a restart would forget it; the gateway log has the cause"
                    + " (event=revocation-not-saved): fix the file, then send this revocation again");
            return;
        }
        LOG.info("event=session-revoked target={} by=\"{}\" tenant=\"{}\"", target.name().toLowerCase(java.util.Locale.ROOT),
                IdentityText.of(by.id()), IdentityText.of(revocation.tenant()));
        JsonResponses.json(ctx, 201, describe(revocation));
    }

    /**
     * A tenant's admins hold its whole share of the blocklist: refused like a full list (507), with what
     * the admin can do. The operator learns which tenant fills the list, since it may be an admin's
     * account misused to deny the other tenants their revocations.
     */
    private static void tenantShareFull(Context ctx, TenantShareFullException e, Principal by) {
        String tenant = IdentityText.of(e.tenant());
        LOG.warn("event=revocation-refused reason=tenant-share-full tenant=\"{}\" by=\"{}\" share={} roomAt={}", tenant,
                IdentityText.of(by.id()), e.share(), e.roomAt());
        JsonResponses.error(ctx, 507, "OMCP_BLOCKLIST_TENANT_SHARE_FULL", "tenant '" + tenant + "' has used its whole share of the"
                + " session blocklist, " + e.share() + " live entries, the most one tenant may hold so that other tenants can"
                + " still revoke and everyone can log out; this revocation was not recorded, so what it names is not revoked."
                + " Entries leave the list as the sessions they void expire, the oldest of this tenant's at " + e.roomAt()
                + ". Until then revoke a user's sessions with one {\"sub\": ...} entry rather than each sid, or ask an operator"
                + " (an admin without a tenant) to revoke it or to raise the share (OMCP_AUTH_REVOCATIONS_PER_TENANT)."
                + " Revoking again what is already revoked still works");
    }

    private static Map<String, Object> describe(Revocation revocation) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put(revocation.target() == RevocationTarget.SID ? "sid" : "sub", revocation.value());
        entry.put("reason", revocation.reason());
        entry.put("revokedAt", revocation.revokedAt().toString());
        entry.put("revokedBy", revocation.revokedBy());
        entry.put("tenant", revocation.tenant());
        return entry;
    }
}
