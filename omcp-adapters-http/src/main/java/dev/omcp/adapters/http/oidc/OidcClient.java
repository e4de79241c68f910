package dev.omcp.adapters.http.oidc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.omcp.adapters.http.outbound.BoundedExchange;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relying-party side of OpenID Connect: discovery (cached, re-read hourly or after a failure,
 * one at a time),
 * the authorization request with PKCE (S256), the code exchange with the exact redirect URI, and
 * ID-token validation with Nimbus (signature from the provider's JWKS in an RSA or EC algorithm the
 * provider advertises ({@link IdTokenAlgorithms}), keys refetched when a token names
 * an unknown key, so key rotation needs no restart; issuer, audience, authorized party, expiry, an
 * issue time not in the future, and nonce). Every answer from the provider (discovery, JWKS, token
 * endpoint) must arrive in full within the timeout and 256 KiB, or the login is refused (fail
 * closed); nothing from it is logged verbatim.
 */
public final class OidcClient {
    private static final Logger LOG = LoggerFactory.getLogger(OidcClient.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int MAX_RESPONSE = 256 * 1024;
    private static final Duration DISCOVERY_TTL = Duration.ofHours(1);
    /** Clock difference tolerated between the gateway and the provider, as Nimbus does for exp and nbf. */
    private static final Duration CLOCK_SKEW = Duration.ofSeconds(DefaultJWTClaimsVerifier.DEFAULT_MAX_CLOCK_SKEW_SECONDS);

    private final OidcSettings settings;
    private final BoundedExchange exchange;
    private final Clock clock;
    private final AtomicReference<Provider> provider = new AtomicReference<>();
    /** The discovery in progress, if any: requests that need one while it runs wait for its outcome. */
    private final AtomicReference<CompletableFuture<Provider>> discovering = new AtomicReference<>();

    /**
     * @param issuerInResponses whether the provider names itself ({@code iss}) in every authorization
     *     response: {@code authorization_response_iss_parameter_supported} of its metadata (RFC 9207)
     */
    private record Provider(URI authorization, URI token, boolean issuerInResponses, IdTokenAlgorithms algorithms,
            DefaultJWTProcessor<SecurityContext> processor, long fetchedNanos) {}

    /**
     * @param clock the gateway's clock: an ID token's {@code iat}, {@code exp} and {@code nbf} are
     *     judged against it (with 60 seconds of tolerance), as sessions and login states are
     */
    public OidcClient(OidcSettings settings, HttpClient http, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.exchange = new BoundedExchange(Objects.requireNonNull(http, "http"), settings.timeout(), MAX_RESPONSE);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The URL to send the browser to, with state, nonce and the PKCE challenge. */
    public URI authorizationRequest(String state, String nonce, String codeChallenge) throws OidcException {
        Provider current = provider();
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", settings.clientId());
        query.put("redirect_uri", settings.redirectUri().toString());
        query.put("scope", String.join(" ", settings.scopes()));
        query.put("state", state);
        query.put("nonce", nonce);
        query.put("code_challenge", codeChallenge);
        query.put("code_challenge_method", "S256");
        String base = current.authorization().toString();
        return URI.create(base + (base.contains("?") ? "&" : "?") + form(query));
    }

    /**
     * Checks the {@code iss} parameter of an authorization response (RFC 9207 2.4), before anything
     * else in it is acted on, error responses included: when present it must be the issuer, compared
     * as a plain string; when the provider's metadata says it always sends one, it must be present.
     * A response another authorization server sent (a mix-up) is refused.
     *
     * @param iss the response's {@code iss} parameter; null when absent
     */
    public void checkResponseIssuer(String iss) throws OidcException {
        Provider current = provider();
        if (iss == null) {
            if (current.issuerInResponses()) {
                throw new OidcException("the authorization response names no issuer (iss), though the identity provider says it "
                        + "always does (RFC 9207); start again at GET /api/auth/oidc/login", false);
            }
            return;
        }
        if (!iss.equals(settings.issuer().toString())) {
            // the value is not repeated: anyone can put text of their choosing into a callback URL
            throw new OidcException("the authorization response was issued by another identity provider than OMCP_OIDC_ISSUER "
                    + "(its iss differs, RFC 9207); start again at GET /api/auth/oidc/login", false);
        }
    }

    /**
     * Exchanges the code and validates the ID token.
     *
     * @return the ID token's claims as plain Java values
     */
    public Map<String, Object> redeem(String code, String codeVerifier, String nonce) throws OidcException {
        Provider current = provider();
        Map<String, String> body = new LinkedHashMap<>();
        body.put("grant_type", "authorization_code");
        body.put("code", code);
        body.put("redirect_uri", settings.redirectUri().toString());
        body.put("code_verifier", codeVerifier);
        body.put("client_id", settings.clientId());
        HttpRequest.Builder request = HttpRequest.newBuilder(current.token())
                .timeout(settings.timeout())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form(body)));
        if (!settings.clientSecret().isEmpty()) {
            String credentials = encode(settings.clientId()) + ":" + encode(settings.clientSecret());
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        JsonNode answer = send(request.build(), "token endpoint");
        if (answer.has("error")) {
            throw new OidcException("the identity provider refused the authorization code (" + shortText(answer.path("error").asText()) + ")", false);
        }
        if (!answer.path("id_token").isTextual()) {
            throw new OidcException("the identity provider's token response has no id_token; is the openid scope allowed for this client?", false);
        }
        return validate(current, answer.path("id_token").asText(), nonce);
    }

    private Map<String, Object> validate(Provider current, String idToken, String nonce) throws OidcException {
        // before the signature: a token in an algorithm the provider does not use is refused with a message that says so
        current.algorithms().check(idToken);
        try {
            DefaultJWTProcessor<SecurityContext> processor = current.processor();
            JWTClaimsSet claims = processor.process(idToken, null);
            // OpenID Connect Core 3.1.3.7 step 10; Nimbus checks exp and nbf but not iat. A token
            // issued in the future was not issued for this login, and its exp may lie far beyond it.
            if (claims.getIssueTime().toInstant().isAfter(clock.instant().plus(CLOCK_SKEW))) {
                throw new OidcException("the ID token was refused: it was issued in the future (iat); "
                        + "check the clocks of the gateway and the identity provider", false);
            }
            Object nonceClaim = claims.getClaim("nonce");
            if (!(nonceClaim instanceof String presented) || !java.security.MessageDigest.isEqual(
                    presented.getBytes(StandardCharsets.UTF_8), nonce.getBytes(StandardCharsets.UTF_8))) {
                throw new OidcException("the ID token's nonce does not belong to this login; start again", false);
            }
            List<String> audience = claims.getAudience();
            Object authorizedParty = claims.getClaim("azp");
            if (audience.size() > 1 && authorizedParty == null) {
                throw new OidcException("the ID token names several audiences but not this client as authorized party", false);
            }
            // OpenID Connect Core 3.1.3.7: an azp that is present must be this client, whatever the audiences
            if (authorizedParty != null && !settings.clientId().equals(authorizedParty)) {
                throw new OidcException("the ID token was issued to another client (azp); start again", false);
            }
            return claims.toJSONObject();
        } catch (BadJWTException e) {
            throw new OidcException("the ID token was refused: " + shortText(e.getMessage()), false, e);
        } catch (BadJOSEException | ParseException e) {
            throw new OidcException("the ID token's signature could not be verified with the provider's keys", false, e);
        } catch (JOSEException e) {
            if (BoundedExchange.isTimeout(e)) {
                throw new OidcException(tooLate("signing keys (jwks_uri)"), true, e);
            }
            if (BoundedExchange.isTooLarge(e)) {
                throw new OidcException("the identity provider's signing keys (jwks_uri) are larger than 256 KiB; the login cannot be verified", true, e);
            }
            throw new OidcException("the provider's signing keys could not be fetched", true, e);
        }
    }

    /**
     * The provider's endpoints and keys, discovered at most once at a time. The login route is
     * public: while the provider is down or the cache has expired, a flood of logins would otherwise
     * send the provider one discovery request each, and hold a thread each for up to the timeout.
     * Requests that arrive during a discovery share its outcome, success or failure.
     */
    private Provider provider() throws OidcException {
        Provider current = provider.get();
        if (fresh(current)) {
            return current;
        }
        CompletableFuture<Provider> mine = new CompletableFuture<>();
        CompletableFuture<Provider> running = discovering.compareAndExchange(null, mine);
        if (running != null) {
            return outcomeOf(running);
        }
        try {
            // a discovery may have ended between the first look and winning the slot
            Provider found = provider.get();
            if (!fresh(found)) {
                found = discover();
                provider.set(found);
            }
            mine.complete(found);
            return found;
        } catch (OidcException | RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            discovering.set(null);
        }
    }

    private static boolean fresh(Provider candidate) {
        return candidate != null && System.nanoTime() - candidate.fetchedNanos() < DISCOVERY_TTL.toNanos();
    }

    /** Waits for another request's discovery; it ends within the exchange deadline, so this wait does too. */
    private static Provider outcomeOf(CompletableFuture<Provider> running) throws OidcException {
        try {
            return running.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OidcException("interrupted while waiting for the identity provider", true, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof OidcException failed) {
                throw new OidcException(failed.getMessage(), failed.providerUnavailable(), failed);
            }
            throw new IllegalStateException("the discovery of the identity provider failed", e.getCause());
        }
    }

    private Provider discover() throws OidcException {
        String issuer = settings.issuer().toString();
        URI wellKnown = URI.create((issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer)
                + "/.well-known/openid-configuration");
        JsonNode document = send(HttpRequest.newBuilder(wellKnown).timeout(settings.timeout())
                .header("Accept", "application/json").GET().build(), "discovery document");
        if (!issuer.equals(document.path("issuer").asText())) {
            throw new OidcException("the provider's discovery document names a different issuer than OMCP_OIDC_ISSUER; "
                    + "set OMCP_OIDC_ISSUER to the exact issuer value", false);
        }
        URI authorization = endpoint(document, "authorization_endpoint");
        URI token = endpoint(document, "token_endpoint");
        URI jwks = endpoint(document, "jwks_uri");
        boolean issuerInResponses = document.path("authorization_response_iss_parameter_supported").asBoolean(false);
        IdTokenAlgorithms algorithms = IdTokenAlgorithms.of(document);
        JWKSource<SecurityContext> keys;
        try {
            // Unknown key ids refetch the JWKS at once (rotation); no background threads.
            keys = JWKSourceBuilder.<SecurityContext>create(jwks.toURL(),
                            new ProviderKeysRetriever(exchange))
                    .cache(Duration.ofMinutes(15).toMillis(), settings.timeout().toMillis())
                    .refreshAheadCache(false)
                    .rateLimited(false)
                    .retrying(false)
                    .outageTolerant(false)
                    .build();
        } catch (IOException e) {
            throw new OidcException("the provider's jwks_uri is not a usable URL", false, e);
        }
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms.accepted(), keys));
        processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(
                settings.clientId(),
                new JWTClaimsSet.Builder().issuer(issuer).build(),
                Set.of("sub", "iat", "exp", "nonce")) {
            @Override
            protected Date currentTime() {
                // exp and nbf by the same clock as iat, not the system's own
                return Date.from(clock.instant());
            }
        });
        LOG.info("event=oidc-discovered issuer=\"{}\"", issuer);
        return new Provider(authorization, token, issuerInResponses, algorithms, processor, System.nanoTime());
    }

    private URI endpoint(JsonNode document, String field) throws OidcException {
        String text = document.path(field).asText("");
        URI uri;
        try {
            uri = URI.create(text);
        } catch (IllegalArgumentException e) {
            throw new OidcException("the provider's discovery document has no valid " + field, false);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean issuerHttps = "https".equalsIgnoreCase(settings.issuer().getScheme());
        if (uri.getHost() == null || !(scheme.equals("https") || (scheme.equals("http") && !issuerHttps))) {
            throw new OidcException("the provider's " + field + " must be an https URL", false);
        }
        return uri;
    }

    private JsonNode send(HttpRequest request, String what) throws OidcException {
        HttpResponse<byte[]> response;
        try {
            response = exchange.send(request);
        } catch (IOException e) {
            if (BoundedExchange.isTimeout(e)) {
                throw new OidcException(tooLate(what), true, e);
            }
            if (BoundedExchange.isTooLarge(e)) {
                throw new OidcException("the identity provider's " + what + " answer is larger than 256 KiB", false, e);
            }
            throw new OidcException("the identity provider's " + what + " cannot be reached (" + e.getClass().getSimpleName() + ")", true, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OidcException("interrupted while calling the identity provider", true, e);
        }
        // A server error is the provider being down (502) whatever its body holds; an empty or HTML
        // error page must not turn it into a refused login (401).
        if (response.statusCode() >= 500) {
            throw new OidcException("the identity provider's " + what + " answered HTTP " + response.statusCode(), true);
        }
        byte[] body = response.body();
        JsonNode json;
        try {
            json = MAPPER.readTree(body);
        } catch (IOException e) {
            throw new OidcException("the identity provider's " + what + " answered HTTP " + response.statusCode() + " without JSON", false);
        }
        if (json == null || !json.isObject()) {
            throw new OidcException("the identity provider's " + what + " answer is not a JSON object", false);
        }
        if (response.statusCode() != 200 && !json.has("error")) {
            throw new OidcException("the identity provider's " + what + " answered HTTP " + response.statusCode(), false);
        }
        return json;
    }

    /** A login that cannot be verified in time is refused; the message names the step, never a URL or a token. */
    private String tooLate(String what) {
        return "the identity provider did not answer in time: its " + what + " did not arrive in full within "
                + exchange.deadline().toMillis() + " ms, so the login cannot be verified";
    }

    private static String form(Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        values.forEach((key, value) -> {
            if (!out.isEmpty()) {
                out.append('&');
            }
            out.append(encode(key)).append('=').append(encode(value));
        });
        return out.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String shortText(String text) {
        String clean = text == null ? "" : text.replaceAll("[^\\x20-\\x7e]", "?");
        return clean.length() <= 120 ? clean : clean.substring(0, 120) + "...";
    }
}
