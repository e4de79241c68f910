package dev.omcp.adapters.http.oidc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.auth.AddressTableFullWarnings;
import dev.omcp.adapters.http.auth.LoginRefusals;
import dev.omcp.adapters.http.auth.SessionCookies;
import dev.omcp.adapters.http.auth.SignedValue;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.ports.auth.AttemptsPerAddress;
import dev.omcp.ports.auth.ClientMetadata;
import dev.omcp.ports.auth.ClientRegistrar;
import dev.omcp.ports.auth.ExternalIdentityMapping;
import dev.omcp.ports.auth.MappedIdentity;
import dev.omcp.ports.auth.RegistrationResult;
import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.sdk.text.LogField;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/auth/oidc/login}, {@code GET /api/auth/oidc/callback} and, with
 * {@code OMCP_OIDC_DCR_ENABLED=true}, {@code POST /api/auth/oidc/register} (spec 4.3, 5.1).
 *
 * <p>The login state (state, nonce, PKCE verifier, where to return) travels in a short-lived
 * signed cookie scoped to {@code /api/auth/oidc}, so any replica can finish a login another
 * started and nothing is stored server-side. The callback checks the state in constant time,
 * redeems the code once, validates the ID token and then issues the same {@code omcp_session}
 * cookie as a password login.
 *
 * <p>Callbacks are limited per client address like password logins (20 a minute): each one that
 * carries a login state may make the gateway call the provider's token endpoint and fetch its keys,
 * and a login state is easy to get (start a login) and stays good for ten minutes.
 */
public final class OidcRoutes {
    /** The login-state cookie. */
    public static final String STATE_COOKIE = "omcp_oidc";
    private static final Logger LOG = LoggerFactory.getLogger(OidcRoutes.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration STATE_LIFETIME = Duration.ofMinutes(10);
    private static final String COOKIE_PATH = "/api/auth/oidc";
    private static final Pattern RETURN_TO = Pattern.compile("/(?![/\\\\])[\\x21-\\x7e]{0,511}");
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final OidcClient client;
    private final ExternalIdentityMapping mapping;
    private final SessionAuthority sessions;
    private final SessionCookies cookies;
    private final CsrfProtection csrf;
    private final SignedValue stateSigner;
    private final SecureRandom random;
    private final Clock clock;
    private final Optional<ClientRegistrar> registrar;
    private final AttemptsPerAddress callbacks;
    private final AddressTableFullWarnings tableFull;

    /**
     * @param csrf hands the page the CSRF token of the session a callback opens
     * @param sessionSecret the session secret; the state cookie is signed with a key derived from it
     * @param registrar dynamic client registration, present only when enabled
     * @param callbacks the per-address limit of callbacks (an instance of its own, not the password login's)
     */
    public OidcRoutes(OidcClient client, ExternalIdentityMapping mapping, SessionAuthority sessions, SessionCookies cookies,
            CsrfProtection csrf, byte[] sessionSecret, SecureRandom random, Clock clock, Optional<ClientRegistrar> registrar,
            AttemptsPerAddress callbacks) {
        this.client = Objects.requireNonNull(client, "client");
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.cookies = Objects.requireNonNull(cookies, "cookies");
        this.csrf = Objects.requireNonNull(csrf, "csrf");
        this.stateSigner = new SignedValue(SignedValue.derive(sessionSecret, "omcp oidc login state v1"));
        this.random = Objects.requireNonNull(random, "random");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.registrar = Objects.requireNonNull(registrar, "registrar");
        this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
        this.tableFull = new AddressTableFullWarnings(clock);
    }

    /** Registers the routes. */
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/auth/oidc/login").tag("auth").publicRoute()
                .summary("Starts a single sign-on: redirects to the identity provider (authorization code with PKCE)")
                .response(302, "redirect to the provider", null)
                .response(502, "the provider cannot be reached")
                .handle(this::login);
        routes.route(HandlerType.GET, "/api/auth/oidc/callback").tag("auth").publicRoute().audit("auth", "oidc-login")
                .summary("Where the provider returns: checks state, redeems the code, validates the ID token, sets the session cookie")
                .response(302, "logged in; redirect to where the login started", null)
                .response(400, "missing or mismatched login state")
                .response(401, "the provider refused, or the ID token was invalid")
                .response(429, "more than 20 callbacks per minute from this address (OMCP_LOGIN_RATE_LIMIT), or the "
                        + "per-address counter is full and this address is new (OMCP_LOGIN_ADDRESS_TABLE_FULL); see Retry-After")
                .response(500, "the person's session does not fit in the session cookie (OMCP_SESSION_TOO_LARGE: a name, "
                        + "tenant or role list too long, or more than 64 roles); no cookie is set")
                .response(502, "the provider cannot be reached")
                .handle(this::callback);
        if (registrar.isPresent()) {
            routes.route(HandlerType.POST, "/api/auth/oidc/register").tag("auth").publicRoute().csrfExempt()
                    .jsonBody(ClientRegistrationRequest.SCHEMA)
                    .audit("auth", "client-register")
                    .summary("RFC 7591 dynamic client registration (OMCP_OIDC_DCR_ENABLED=true)")
                    .response(201, "the registered client, with client_secret shown once")
                    .response(400, "invalid_redirect_uri or invalid_client_metadata (RFC 7591 3.2.2)")
                    .response(413, "the body is larger than 1 MiB (error invalid_client_metadata)")
                    .response(415, "the body is not application/json (error invalid_client_metadata)")
                    .response(429, "too many registrations from this address, or the registry is full and none of its"
                            + " registrations is 24 hours old yet; see Retry-After")
                    .handle(this::registerClient);
        }
    }

    private void login(Context ctx) throws IOException {
        String returnTo = QueryString.first(ctx, "returnTo").filter(r -> RETURN_TO.matcher(r).matches()).orElse("/");
        String state = randomText(32);
        String nonce = randomText(32);
        String verifier = randomText(64);
        URI destination;
        try {
            destination = client.authorizationRequest(state, nonce, challenge(verifier));
        } catch (OidcException e) {
            failed(ctx, e);
            return;
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("state", state);
        payload.put("nonce", nonce);
        payload.put("verifier", verifier);
        payload.put("returnTo", returnTo);
        payload.put("exp", clock.instant().plus(STATE_LIFETIME).getEpochSecond());
        String value = stateSigner.sign(MAPPER.writeValueAsBytes(payload));
        ctx.res().addHeader("Set-Cookie", STATE_COOKIE + "=" + value + "; Path=" + COOKIE_PATH + "; Max-Age="
                + STATE_LIFETIME.toSeconds() + "; HttpOnly; SameSite=Lax" + (ApiCaller.secure(ctx) ? "; Secure" : ""));
        ctx.header("Cache-Control", "no-store");
        ctx.redirect(destination.toString());
    }

    private void callback(Context ctx) throws IOException {
        ctx.header("Cache-Control", "no-store");
        // Counted before anything else, and before the state cookie is cleared: a person refused
        // here can open the same callback again after Retry-After.
        if (!admitted(ctx)) {
            return;
        }
        clearState(ctx);
        Optional<JsonNode> saved = Optional.ofNullable(ctx.cookie(STATE_COOKIE)).flatMap(stateSigner::verify).flatMap(OidcRoutes::json);
        if (saved.isEmpty() || !saved.get().path("exp").canConvertToLong()
                || saved.get().path("exp").asLong() <= clock.instant().getEpochSecond()) {
            JsonResponses.error(ctx, 400, "OMCP_OIDC_STATE_INVALID",
                    "the login state is missing or expired; start again at GET /api/auth/oidc/login");
            return;
        }
        JsonNode expected = saved.get();
        String state = QueryString.first(ctx, "state").orElse(null);
        if (state == null || !MessageDigest.isEqual(state.getBytes(StandardCharsets.UTF_8),
                expected.path("state").asText().getBytes(StandardCharsets.UTF_8))) {
            JsonResponses.error(ctx, 400, "OMCP_OIDC_STATE_INVALID",
                    "the state returned by the identity provider does not match this browser's login; start again at GET /api/auth/oidc/login");
            return;
        }
        // RFC 9207: the response must come from the configured provider, before its error or code counts
        try {
            client.checkResponseIssuer(QueryString.first(ctx, "iss").orElse(null));
        } catch (OidcException e) {
            failed(ctx, e);
            return;
        }
        // Only after the state matched (RFC 6749 4.1.2.1 returns it with an error too): anyone can
        // craft a callback URL with an error text of their choosing, but not with this browser's state.
        String error = QueryString.first(ctx, "error").orElse(null);
        if (error != null) {
            ProviderDenial denial = ProviderDenial.of(error, QueryString.first(ctx, "error_description").orElse(null));
            LOG.info("event=login outcome=denied mode=oidc error={} description=\"{}\" ip={}", denial.code(), denial.description(),
                    ApiCaller.clientIp(ctx));
            JsonResponses.error(ctx, 401, "OMCP_OIDC_DENIED", denial.message());
            return;
        }
        String code = QueryString.first(ctx, "code").orElse(null);
        if (code == null || code.isEmpty() || code.length() > 4096) {
            JsonResponses.error(ctx, 400, "OMCP_BAD_REQUEST", "the identity provider returned no authorization code");
            return;
        }
        Map<String, Object> claims;
        try {
            claims = client.redeem(code, expected.path("verifier").asText(), expected.path("nonce").asText());
        } catch (OidcException e) {
            failed(ctx, e);
            return;
        }
        if (claims.get("sub") instanceof String sub) {
            // as the provider sent it: the audit writes it in its printable, bounded form (IdentityText)
            ApiCaller.auditActor(ctx, sub);
        }
        MappedIdentity identity = mapping.map(claims);
        if (identity instanceof MappedIdentity.Refused refused) {
            // the operator's clue too: a claim the provider does not send (a tenant, a usable sub)
            LOG.warn("event=login outcome=refused mode=oidc reason=\"{}\"", LogField.of(refused.reason()));
            JsonResponses.error(ctx, 401, "OMCP_OIDC_FAILED", refused.reason());
            return;
        }
        SessionClaims session = sessions.open(((MappedIdentity.Mapped) identity).subject());
        SessionCookies.Issue cookie = cookies.issue(session, sessions.lifetime(), ApiCaller.secure(ctx));
        if (cookie instanceof SessionCookies.Issue.TooLarge tooLarge) {
            LoginRefusals.sessionTooLarge(ctx, session.sub(), tooLarge.problem());
            return;
        }
        ctx.res().addHeader("Set-Cookie", ((SessionCookies.Issue.Issued) cookie).setCookie());
        csrf.issueForSession(ctx, session.sid(), ApiCaller.secure(ctx));
        LOG.info("event=login outcome=ok mode=oidc principal=\"{}\" roles={}", IdentityText.of(session.sub()),
                session.roles());
        ctx.redirect(expected.path("returnTo").asText("/"));
    }

    /** Spec 5.2 rule 3 applied to the callback: 20 per minute per address, in a bounded table. */
    private boolean admitted(Context ctx) {
        Optional<AttemptsPerAddress.Refusal> refused = callbacks.tryAttempt(ApiCaller.clientIp(ctx), clock.instant());
        if (refused.isEmpty()) {
            return true;
        }
        if (refused.get().tableFull()) {
            tableFull.refused(callbacks.capacity());
            LoginRefusals.addressTableFull(ctx, refused.get().retryAfter());
        } else {
            LoginRefusals.tooMany(ctx, refused.get().retryAfter(), "OMCP_LOGIN_RATE_LIMIT",
                    "more than 20 sign-ins per minute from this address; open the same page again after the Retry-After seconds");
        }
        return false;
    }

    private void registerClient(Context ctx) throws IOException {
        Optional<ClientMetadata> metadata = ClientRegistrationRequest.read(ctx);
        if (metadata.isEmpty()) {
            return;
        }
        RegistrationResult result = registrar.orElseThrow().register(metadata.get(), ApiCaller.clientIp(ctx));
        switch (result) {
            case RegistrationResult.Registered registered -> {
                ApiCaller.auditTarget(ctx, registered.client().clientId());
                ClientMetadata stored = registered.client().metadata();
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("client_id", registered.client().clientId());
                answer.put("client_id_issued_at", registered.client().issuedAt().getEpochSecond());
                if (!registered.clientSecret().isEmpty()) {
                    answer.put("client_secret", registered.clientSecret());
                    // RFC 7591 3.2.1: after it the registration may be removed to make room, so the client registers again
                    answer.put("client_secret_expires_at", registered.keptUntil().getEpochSecond());
                }
                answer.put("redirect_uris", stored.redirectUris());
                if (!stored.clientName().isEmpty()) {
                    answer.put("client_name", stored.clientName());
                }
                answer.put("token_endpoint_auth_method", stored.tokenEndpointAuthMethod());
                answer.put("grant_types", stored.grantTypes());
                answer.put("response_types", stored.responseTypes());
                if (!stored.scope().isEmpty()) {
                    answer.put("scope", stored.scope());
                }
                ctx.header("Cache-Control", "no-store");
                JsonResponses.json(ctx, 201, answer);
            }
            case RegistrationResult.Rejected rejected -> dcrError(ctx, 400, rejected.error(), rejected.description());
            case RegistrationResult.TooMany tooMany -> {
                ctx.header("Retry-After", Long.toString(Math.max(1, tooMany.retryAfter().toSeconds())));
                dcrError(ctx, 429, "too_many_registrations", "too many client registrations; try again after the Retry-After seconds");
            }
            case RegistrationResult.RegistryFull full -> {
                ctx.header("Retry-After", Long.toString(Math.max(1, full.retryAfter().toSeconds())));
                dcrError(ctx, 429, "too_many_registrations", full.description());
            }
        }
    }

    private static void dcrError(Context ctx, int status, String error, String description) {
        ClientRegistrationErrors.answer(ctx, status, ClientRegistrationErrors.REJECTED, error, description);
    }

    private void failed(Context ctx, OidcException e) {
        if (e.providerUnavailable()) {
            // the message may quote the provider's own text (an error code, a token check): it may hold a quote
            LOG.warn("event=oidc-provider-unavailable reason=\"{}\"", LogField.of(e.getMessage()));
            JsonResponses.error(ctx, 502, "OMCP_OIDC_UNAVAILABLE", e.getMessage() + "; try again later");
        } else {
            LOG.warn("event=login outcome=refused mode=oidc reason=\"{}\"", LogField.of(e.getMessage()));
            JsonResponses.error(ctx, 401, "OMCP_OIDC_FAILED", e.getMessage());
        }
    }

    private void clearState(Context ctx) {
        ctx.res().addHeader("Set-Cookie", STATE_COOKIE + "=; Path=" + COOKIE_PATH + "; Max-Age=0; HttpOnly; SameSite=Lax"
                + (ApiCaller.secure(ctx) ? "; Secure" : ""));
    }

    private String randomText(int bytes) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        return B64.encodeToString(value);
    }

    static String challenge(String verifier) {
        try {
            return B64.encodeToString(MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }

    private static Optional<JsonNode> json(byte[] bytes) {
        try {
            return Optional.ofNullable(MAPPER.readTree(bytes));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
