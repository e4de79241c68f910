package dev.omcp.adapters.http.oidc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relying party against a hostile OpenID provider played by a local HTTP server: answers
 * trickled a byte at a time after prompt headers, answers larger than any real one, and ID tokens
 * that try algorithm confusion. Every such login is refused (fail closed), within the timeout, with
 * a message that names the step and carries no URL, code or token.
 */
class OidcClientIT {
    private static final String CLIENT_ID = "omcp-gateway";
    private static final String NONCE = "nonce-of-this-login";
    /** The deadline of the trickle tests: short, so a trickled answer is cut off well before it ends. */
    private static final Duration TIMEOUT = Duration.ofMillis(800);
    /**
     * The deadline of every other test: a cold first request on a loaded machine can take longer
     * than 800 ms, and those tests are about what is refused, not about when.
     */
    private static final Duration PATIENT = Duration.ofSeconds(10);

    enum Behaviour { NORMAL, TRICKLE, HUGE, SLOW, SLOW_FAILURE }

    private final Map<String, Behaviour> behaviour = new ConcurrentHashMap<>();
    private final AtomicReference<String> idToken = new AtomicReference<>();
    /** Members appended to the discovery document, each with its leading comma. */
    private final AtomicReference<String> extraMetadata = new AtomicReference<>("");
    private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
    /** The gateway's clock: years away from the system clock, so a check that reads the system clock shows. */
    private final ManualClock clock = new ManualClock(Instant.parse("2031-03-01T00:00:00Z"));
    private RSAKey signingKey;
    /** Published next to the RSA key: a signature OMCP can verify, in an algorithm a provider may not advertise. */
    private ECKey ecKey;
    private HttpServer provider;
    private String issuer;

    @BeforeEach
    void start() throws IOException, JOSEException {
        signingKey = new RSAKeyGenerator(2048).keyID("key-1").generate();
        ecKey = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        issuer = "http://127.0.0.1:" + provider.getAddress().getPort();
        provider.createContext("/.well-known/openid-configuration", exchange -> answer(exchange, "/discovery", """
                {"issuer": "%1$s", "authorization_endpoint": "%1$s/authorize", "token_endpoint": "%1$s/token",
                 "jwks_uri": "%1$s/jwks"%2$s}"""
                .formatted(issuer, extraMetadata.get())));
        provider.createContext("/jwks", exchange -> answer(exchange, "/jwks",
                new JWKSet(List.of(signingKey.toPublicJWK(), ecKey.toPublicJWK())).toString()));
        provider.createContext("/token", exchange -> {
            exchange.getRequestBody().readAllBytes();
            answer(exchange, "/token", "{\"access_token\": \"a\", \"token_type\": \"Bearer\", \"id_token\": \"" + idToken.get() + "\"}");
        });
        provider.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        provider.start();
        idToken.set(signed(claims()));
    }

    @AfterEach
    void stop() {
        provider.stop(0);
    }

    private void answer(HttpExchange exchange, String step, String json) throws IOException {
        served.computeIfAbsent(step, s -> new AtomicInteger()).incrementAndGet();
        Behaviour how = behaviour.getOrDefault(step, Behaviour.NORMAL);
        if (how == Behaviour.SLOW || how == Behaviour.SLOW_FAILURE) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (how == Behaviour.SLOW_FAILURE) {
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
        }
        byte[] body = (how == Behaviour.HUGE ? json.substring(0, json.length() - 1) + ", \"padding\": \"" + "x".repeat(300 * 1024) + "\"}" : json)
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        // a huge answer goes out chunked, so only the bytes themselves can show its size
        exchange.sendResponseHeaders(200, how == Behaviour.HUGE ? 0 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (how != Behaviour.TRICKLE) {
                out.write(body);
                return;
            }
            for (byte b : body) {
                out.write(b);
                out.flush();
                Thread.sleep(100);
            }
        } catch (IOException e) {
            // the relying party hung up on the trickle: what the tests expect
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private OidcClient client() {
        return client(PATIENT);
    }

    private OidcClient client(Duration timeout) {
        return new OidcClient(new OidcSettings(URI.create(issuer), CLIENT_ID, "", URI.create("https://gw.example.test/api/auth/oidc/callback"),
                List.of("openid"), timeout), HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build(), clock);
    }

    private JWTClaimsSet claims() {
        Instant now = clock.instant();
        return new JWTClaimsSet.Builder().issuer(issuer).audience(CLIENT_ID).subject("u-1").issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300))).claim("nonce", NONCE).build();
    }

    private String signed(JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signingKey.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(signingKey));
        return jwt.serialize();
    }

    private static void assertCleanRefusal(OidcException e, boolean unavailable) {
        assertThat(e.providerUnavailable()).isEqualTo(unavailable);
        assertThat(e.getMessage()).doesNotContain("127.0.0.1").doesNotContain("http:").doesNotContain("eyJ");
    }

    @Test
    void aWellBehavedProviderLogsIn() throws OidcException {
        assertThat(client().authorizationRequest("s", NONCE, "c").toString()).startsWith(issuer + "/authorize?");
        assertThat(client().redeem("code", "verifier", NONCE)).containsEntry("sub", "u-1");
    }

    @Test
    void loginsThatArriveTogether_shareOneDiscovery_whetherItSucceedsOrFails() throws Exception {
        // the login route is public: a flood of starts while the cache is empty must not become a flood at the provider
        OidcClient client = client();
        behaviour.put("/discovery", Behaviour.SLOW_FAILURE);
        List<Object> failed = together(20, () -> client.authorizationRequest("s", NONCE, "c"));
        assertThat(served.get("/discovery")).hasValue(1);
        assertThat(failed).hasSize(20).allSatisfy(outcome -> assertThat(outcome).isInstanceOfSatisfying(OidcException.class, e -> {
            // a 503 without a body is the provider being down (502), not a refused login
            assertThat(e.getMessage()).isEqualTo("the identity provider's discovery document answered HTTP 503");
            assertCleanRefusal(e, true);
        }));

        behaviour.put("/discovery", Behaviour.SLOW);
        List<Object> started = together(20, () -> client.authorizationRequest("s", NONCE, "c"));
        assertThat(served.get("/discovery")).as("one more, for all twenty").hasValue(2);
        assertThat(started).hasSize(20).allSatisfy(outcome -> assertThat(outcome.toString()).startsWith(issuer + "/authorize?"));
    }

    /** Runs {@code call} on {@code count} threads released at once; each one's result or exception. */
    private static List<Object> together(int count, java.util.concurrent.Callable<Object> call) throws InterruptedException {
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<Object> outcomes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                threads.submit(() -> {
                    go.await();
                    try {
                        outcomes.add(call.call());
                    } catch (Exception e) {
                        outcomes.add(e);
                    }
                    return null;
                });
            }
            go.countDown();
        }
        return outcomes;
    }

    @Test
    void aTrickledDiscoveryDocument_refusesTheLoginAtTheTimeout() {
        behaviour.put("/discovery", Behaviour.TRICKLE);
        long start = System.nanoTime();
        assertThatThrownBy(() -> client(TIMEOUT).authorizationRequest("s", NONCE, "c")).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("the identity provider did not answer in time: its discovery document did not arrive "
                    + "in full within 800 ms, so the login cannot be verified");
            assertCleanRefusal(e, true);
        });
        // the document is ~150 bytes: at a byte per 100 ms it would take 15 s
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void aTrickledTokenAnswer_refusesTheLoginAtTheTimeout() {
        behaviour.put("/token", Behaviour.TRICKLE);
        assertThatThrownBy(() -> client(TIMEOUT).redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).contains("did not answer in time").contains("token endpoint");
            assertCleanRefusal(e, true);
        });
    }

    @Test
    void trickledSigningKeys_refuseTheLoginAtTheTimeout() {
        behaviour.put("/jwks", Behaviour.TRICKLE);
        long start = System.nanoTime();
        assertThatThrownBy(() -> client(TIMEOUT).redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).contains("did not answer in time").contains("signing keys");
            assertCleanRefusal(e, true);
        });
        // a JWKS of ~450 bytes would take 45 s; Nimbus's own retriever timed each read only and waited for all of it
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void oversizedAnswers_refuseTheLogin() {
        behaviour.put("/discovery", Behaviour.HUGE);
        assertThatThrownBy(() -> client().authorizationRequest("s", NONCE, "c")).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("the identity provider's discovery document answer is larger than 256 KiB");
            assertCleanRefusal(e, false);
        });
        behaviour.clear();
        behaviour.put("/token", Behaviour.HUGE);
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class,
                e -> assertThat(e.getMessage()).isEqualTo("the identity provider's token endpoint answer is larger than 256 KiB"));
        behaviour.clear();
        behaviour.put("/jwks", Behaviour.HUGE);
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).contains("signing keys").contains("larger than 256 KiB");
            assertCleanRefusal(e, true);
        });
    }

    @Test
    void anUnsignedIdToken_algNone_isRefused() {
        idToken.set(new PlainJWT(claims()).serialize());
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).contains("signature");
            assertCleanRefusal(e, false);
        });
    }

    @Test
    void anIdTokenMacedWithTheProvidersPublicKey_hs256Confusion_isRefused() throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(signingKey.getKeyID()).build(), claims());
        jwt.sign(new MACSigner(signingKey.toRSAPublicKey().getEncoded()));
        idToken.set(jwt.serialize());
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).contains("signature");
            assertCleanRefusal(e, false);
        });
    }

    private String signedWithEc(JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(ecKey.getKeyID()).build(), claims);
        jwt.sign(new ECDSASigner(ecKey));
        return jwt.serialize();
    }

    @Test
    void anIdTokenInAnAlgorithmTheProviderDoesNotAdvertise_isRefused_thoughItsKeyIsPublished() throws Exception {
        // OpenID Connect Core 3.1.3.7 step 7: the algorithm is RS256 or the one the provider uses for this client
        extraMetadata.set(", \"id_token_signing_alg_values_supported\": [\"RS256\", \"HS256\"]");
        idToken.set(signedWithEc(claims()));
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("the ID token was refused: its signature algorithm ES256 is not one the identity "
                    + "provider advertises and OMCP accepts (RS256; the provider advertises RS256, HS256)");
            assertCleanRefusal(e, false);
        });

        extraMetadata.set(", \"id_token_signing_alg_values_supported\": [\"RS256\", \"ES256\"]");
        assertThat(client().redeem("code", "verifier", NONCE)).as("advertised: accepted").containsEntry("sub", "u-1");
    }

    @Test
    void aProviderThatNamesNoAlgorithm_isTakenAtRs256_theDefaultOfOpenIdConnect() throws Exception {
        // id_token_signing_alg_values_supported is required by OpenID Connect Discovery; without it RS256 is the default
        assertThat(client().redeem("code", "verifier", NONCE)).as("RS256").containsEntry("sub", "u-1");
        idToken.set(signedWithEc(claims()));
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).contains("its signature algorithm ES256 is not one the identity provider advertises");
            assertCleanRefusal(e, false);
        });
    }

    @Test
    void aProviderThatAdvertisesNoAlgorithmOmcpVerifies_isRefusedAtDiscovery_sayingWhatEachSideSupports() {
        Map<String, String> refusals = Map.of(
                "[\"HS256\"]", "the identity provider's id_token_signing_alg_values_supported lists only HS256, and OMCP accepts "
                        + "ID tokens signed only with ES256, ES256K, ES384, ES512, PS256, PS384, PS512, RS256, RS384, RS512; "
                        + "have the provider sign this client's ID tokens with RS256 or ES256",
                "[\"none\"]", "the identity provider's id_token_signing_alg_values_supported lists only none, and OMCP accepts",
                "[]", "the identity provider's id_token_signing_alg_values_supported lists no algorithm, and OMCP accepts",
                "\"RS256\"", "the provider's discovery document has an id_token_signing_alg_values_supported that is not a list");
        refusals.forEach((advertised, message) -> {
            extraMetadata.set(", \"id_token_signing_alg_values_supported\": " + advertised);
            assertThatThrownBy(() -> client().authorizationRequest("s", NONCE, "c")).as(advertised)
                    .isInstanceOfSatisfying(OidcException.class, e -> {
                        assertThat(e.getMessage()).startsWith(message);
                        assertCleanRefusal(e, false);
                    });
        });
    }

    @Test
    void aKeyIdWithPathCharacters_matchesNoKey_andIsRefused() throws JOSEException {
        RSAKey same = new RSAKey.Builder(signingKey).keyID("../../jwks").build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(same.getKeyID()).build(), claims());
        jwt.sign(new RSASSASigner(same));
        idToken.set(jwt.serialize());
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class,
                e -> assertThat(e.getMessage()).contains("signature"));
    }

    @Test
    void anIdTokenIssuedToAnotherAuthorizedParty_isRefused_evenWithThisClientAsItsOnlyAudience() throws JOSEException {
        // OpenID Connect Core 3.1.3.7 step 5: an azp claim that is present must be this client
        idToken.set(signed(new JWTClaimsSet.Builder(claims()).claim("azp", "another-client").build()));

        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("the ID token was issued to another client (azp); start again");
            assertCleanRefusal(e, false);
        });
    }

    @Test
    void anIdTokenNamingThisClientAsAuthorizedParty_logsIn() throws JOSEException, OidcException {
        idToken.set(signed(new JWTClaimsSet.Builder(claims()).audience(List.of(CLIENT_ID, "api")).claim("azp", CLIENT_ID).build()));

        assertThat(client().redeem("code", "verifier", NONCE)).containsEntry("sub", "u-1");
    }

    @Test
    void anIdTokenIssuedInTheFuture_isRefused_butOneWithinTheClockSkewLogsIn() throws JOSEException, OidcException {
        // OpenID Connect Core 3.1.3.7 step 10: a token issued a day from now was not issued for this
        // login; it would also stay valid long after it (exp follows iat)
        Instant tomorrow = clock.instant().plus(Duration.ofDays(1));
        idToken.set(signed(new JWTClaimsSet.Builder(claims()).issueTime(Date.from(tomorrow))
                .expirationTime(Date.from(tomorrow.plusSeconds(300))).build()));
        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("the ID token was refused: it was issued in the future (iat); "
                    + "check the clocks of the gateway and the identity provider");
            assertCleanRefusal(e, false);
        });

        idToken.set(signed(new JWTClaimsSet.Builder(claims()).issueTime(Date.from(clock.instant().plusSeconds(30))).build()));
        assertThat(client().redeem("code", "verifier", NONCE)).containsEntry("sub", "u-1");
    }

    @Test
    void theFutureIatCheck_readsTheGatewaysClock_andAllowsExactlySixtySecondsOfSkew() throws JOSEException, OidcException {
        OidcClient client = client();
        Instant now = clock.instant();
        idToken.set(signed(new JWTClaimsSet.Builder(claims()).issueTime(Date.from(now.plusSeconds(60))).build()));
        assertThat(client.redeem("code", "verifier", NONCE)).as("iat 60 s ahead: within the skew").containsEntry("sub", "u-1");

        idToken.set(signed(new JWTClaimsSet.Builder(claims()).issueTime(Date.from(now.plusSeconds(61))).build()));
        assertThatThrownBy(() -> client.redeem("code", "verifier", NONCE)).as("iat 61 s ahead")
                .isInstanceOfSatisfying(OidcException.class, e -> assertThat(e.getMessage()).contains("issued in the future (iat)"));

        clock.advance(Duration.ofSeconds(1));
        assertThat(client.redeem("code", "verifier", NONCE)).as("the same token one second later").containsEntry("sub", "u-1");
    }

    @Test
    void expiryIsJudgedByTheGatewaysClock_notTheSystemClock() throws JOSEException {
        // valid by the system clock, long expired by the gateway's
        Instant systemNow = Instant.now();
        idToken.set(signed(new JWTClaimsSet.Builder(claims()).issueTime(Date.from(systemNow))
                .expirationTime(Date.from(systemNow.plusSeconds(300))).build()));

        assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).startsWith("the ID token was refused: ").containsIgnoringCase("expired");
            assertCleanRefusal(e, false);
        });
    }

    @Test
    void anIdTokenWithoutExpiry_orWithAnotherIssuerOrAudience_isRefused() throws JOSEException {
        JWTClaimsSet noExpiry = new JWTClaimsSet.Builder(claims()).expirationTime(null).build();
        JWTClaimsSet expired = new JWTClaimsSet.Builder(claims()).expirationTime(Date.from(clock.instant().minusSeconds(120))).build();
        JWTClaimsSet otherIssuer = new JWTClaimsSet.Builder(claims()).issuer(issuer + "/other").build();
        JWTClaimsSet otherAudience = new JWTClaimsSet.Builder(claims()).audience("another-client").build();
        JWTClaimsSet severalAudiencesNoAzp = new JWTClaimsSet.Builder(claims()).audience(List.of(CLIENT_ID, "api")).build();
        for (JWTClaimsSet claims : List.of(noExpiry, expired, otherIssuer, otherAudience, severalAudiencesNoAzp)) {
            idToken.set(signed(claims));
            assertThatThrownBy(() -> client().redeem("code", "verifier", NONCE)).as(claims.toString())
                    .isInstanceOfSatisfying(OidcException.class, e -> assertCleanRefusal(e, false));
        }
    }

    @Test
    void theIssuerOfAnAuthorizationResponse_mustBeTheProvider_whenItIsNamed_rfc9207() throws OidcException {
        OidcClient client = client();
        client.checkResponseIssuer(issuer);
        client.checkResponseIssuer(null);
        // simple string comparison (RFC 9207 2.4): a trailing slash or another case is another issuer
        for (String other : List.of("https://attacker.example", issuer + "/", issuer.toUpperCase(java.util.Locale.ROOT), "")) {
            assertThatThrownBy(() -> client.checkResponseIssuer(other)).as(other).isInstanceOfSatisfying(OidcException.class, e -> {
                assertThat(e.getMessage()).isEqualTo("the authorization response was issued by another identity provider than "
                        + "OMCP_OIDC_ISSUER (its iss differs, RFC 9207); start again at GET /api/auth/oidc/login");
                assertCleanRefusal(e, false);
            });
        }
    }

    @Test
    void aProviderThatAlwaysNamesItself_rfc9207_hasAResponseWithoutIssRefused() throws OidcException {
        extraMetadata.set(", \"authorization_response_iss_parameter_supported\": true");
        OidcClient client = client();
        client.checkResponseIssuer(issuer);
        assertThatThrownBy(() -> client.checkResponseIssuer(null)).isInstanceOfSatisfying(OidcException.class, e -> {
            assertThat(e.getMessage()).startsWith("the authorization response names no issuer (iss)");
            assertCleanRefusal(e, false);
        });
    }

    @Test
    void anIdTokenOfAnotherLogin_nonceMismatch_isRefused() {
        assertThatThrownBy(() -> client().redeem("code", "verifier", "another-login")).isInstanceOfSatisfying(OidcException.class,
                e -> assertThat(e.getMessage()).contains("nonce"));
    }
}
