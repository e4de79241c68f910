package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.oauth2.sdk.TokenRequest;
import dev.omcp.adapters.http.oidc.OidcRoutes;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The oidc mode against a real OpenID provider running in the test (mock-oauth2-server: discovery,
 * JWKS, authorization code with PKCE). The test plays the browser; the gateway's public address
 * {@code https://gw.example.test} is resolved to the local gateway by the test.
 */
class OidcLoginIT {
    private static final String CLIENT_ID = "omcp-gateway";
    private static final String PUBLIC_BASE = "https://gw.example.test";
    private static final String REDIRECT = PUBLIC_BASE + "/api/auth/oidc/callback";

    /** Signs with one key at a time and publishes only that key, like a provider after a rotation. */
    static final class RotatingKeys extends KeyProvider {
        private volatile RSAKey current = newKey("key-1");

        static RSAKey newKey(String kid) {
            try {
                return new RSAKeyGenerator(2048).keyID(kid).generate();
            } catch (JOSEException e) {
                throw new IllegalStateException(e);
            }
        }

        /** When set, tokens are signed with this key while the JWKS keeps publishing {@code current}. */
        private volatile RSAKey forger;

        void rotate(String kid) {
            current = newKey(kid);
        }

        void signWithUnpublishedKey() {
            forger = newKey(current.getKeyID());
        }

        @Override
        public JWK signingKey(String issuerId) {
            boolean publishing = StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getMethodName().equals("publicJwkSet")));
            return forger != null && !publishing ? forger : current;
        }
    }

    /** What the provider puts into the next ID token. */
    record Person(String subject, Map<String, Object> claims) implements OAuth2TokenCallback {
        @Override
        public String issuerId() {
            return "default";
        }

        @Override
        public String subject(TokenRequest request) {
            return subject;
        }

        @Override
        public String typeHeader(TokenRequest request) {
            return "JWT";
        }

        @Override
        public List<String> audience(TokenRequest request) {
            return List.of(CLIENT_ID);
        }

        @Override
        public Map<String, Object> addClaims(TokenRequest request) {
            return claims;
        }

        @Override
        public long tokenExpiry() {
            return 3600;
        }
    }

    @TempDir
    Path dir;

    @RegisterExtension
    final CapturedLog log = CapturedLog.of(OidcRoutes.class);

    private final RotatingKeys keys = new RotatingKeys();
    private final ManualClock clock = new ManualClock(Instant.now());
    private MockOAuth2Server provider;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        provider = new MockOAuth2Server(new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(keys)));
        provider.start(InetAddress.getLoopbackAddress(), 0);
        gateway = TestGateway.start(oidcEnv(Map.of()), clock);
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        provider.shutdown();
    }

    private Map<String, String> oidcEnv(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "oidc");
        env.put("OMCP_SESSION_SECRET", TestGateway.SECRET);
        env.put("OMCP_OIDC_ISSUER", issuer());
        env.put("OMCP_OIDC_CLIENT_ID", CLIENT_ID);
        env.put("OMCP_OIDC_CLIENT_SECRET", "client-secret-at-the-provider");
        env.put("OMCP_OIDC_REDIRECT_URI", REDIRECT);
        env.put("OMCP_OIDC_ROLE_MAP", "{\"sre\": \"operator\", \"platform-admins\": [\"admin\"]}");
        env.put("OMCP_OIDC_TENANT_CLAIM", "org");
        env.putAll(extra);
        return env;
    }

    private String issuer() {
        return provider.issuerUrl("default").toString().replaceAll("/$", "");
    }

    private String local(String publicUrl) {
        return publicUrl.replace(PUBLIC_BASE, gateway.base());
    }

    private static Map<String, String> query(String url) {
        Map<String, String> values = new LinkedHashMap<>();
        String raw = URI.create(url).getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                values.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    /** Follows the login to the provider and back; returns the gateway's answer to the callback. */
    private Browser.Reply signIn(Browser browser, Person person) {
        provider.enqueueCallback(person);
        Browser.Reply start = browser.get("/api/auth/oidc/login");
        assertThat(start.status()).isEqualTo(302);
        Browser.Reply authorize = browser.get(start.header("Location"));
        assertThat(authorize.status()).as("the provider redirects back with a code").isEqualTo(302);
        return browser.get(local(authorize.header("Location")));
    }

    /** A person of tenant {@code acme} (OMCP_OIDC_TENANT_CLAIM=org), unless the claims name another. */
    private static Person person(String subject, Map<String, Object> claims) {
        Map<String, Object> withTenant = new HashMap<>(Map.of("org", "acme"));
        withTenant.putAll(claims);
        return new Person(subject, withTenant);
    }

    @Test
    void login_redirectsWithPkceStateNonceAndTheExactRedirectUri() {
        Browser browser = gateway.browser();
        Browser.Reply start = browser.get("/api/auth/oidc/login");
        assertThat(start.status()).isEqualTo(302);
        Map<String, String> params = query(start.header("Location"));
        assertThat(start.header("Location")).startsWith(issuer() + "/authorize?");
        assertThat(params).containsEntry("response_type", "code").containsEntry("client_id", CLIENT_ID)
                .containsEntry("redirect_uri", REDIRECT).containsEntry("code_challenge_method", "S256")
                .containsEntry("scope", "openid profile email");
        assertThat(params.get("state")).hasSizeGreaterThanOrEqualTo(43);
        assertThat(params.get("nonce")).hasSizeGreaterThanOrEqualTo(43);
        assertThat(params.get("code_challenge")).hasSize(43);
        assertThat(start.cookie("omcp_oidc")).contains("Path=/api/auth/oidc").contains("HttpOnly").contains("Max-Age=600");
    }

    @Test
    void callback_setsTheSameSessionCookie_withRolesMappedFromGroups_andTheTenantClaim() {
        Browser browser = gateway.browser();
        Browser.Reply callback = signIn(browser, person("u-123", Map.of("name", "Una Ops", "groups", List.of("sre", "platform-admins", "other"),
                "org", "acme")));
        assertThat(callback.status()).isEqualTo(302);
        assertThat(callback.header("Location")).isEqualTo("/");
        assertThat(callback.cookie("omcp_session")).contains("HttpOnly").contains("SameSite=Lax").contains("Max-Age=43200");
        JsonNode me = browser.get("/api/me").json();
        assertThat(me.path("sub").asText()).isEqualTo("u-123");
        assertThat(me.path("name").asText()).isEqualTo("Una Ops");
        assertThat(me.path("roles").toString()).isEqualTo("[\"admin\",\"operator\"]");
        assertThat(me.path("tenant").asText()).isEqualTo("acme");
        assertThat(me.path("authKind").asText()).isEqualTo("session");
        assertThat(browser.get("/api/policy").status()).isEqualTo(200);
        AuditEvent login = gateway.audit.events().stream().filter(e -> e.action().equals("oidc-login")).findFirst().orElseThrow();
        assertThat(login.actor()).isEqualTo("u-123");
        assertThat(login.status()).isEqualTo(302);
    }

    @Test
    void aSubjectWithQuotesBidiAndInvisibleCharacters_isAuditedAndLoggedEscaped_soItStillNamesOnePerson() {
        // what a provider (or a person who may choose their own subject there) can put into sub
        String sub = "u-9\" principal=\"admin\u202Enimda\u200B";
        String shown = "u-9\\u{22} principal=\\u{22}admin\\u{202E}nimda\\u{200B}";
        Browser browser = gateway.browser();

        Browser.Reply callback = signIn(browser, person(sub, Map.of("groups", List.of("platform-admins"))));
        assertThat(callback.status()).isEqualTo(302);
        assertThat(browser.get("/api/me").json().path("sub").asText()).as("the session keeps the subject as sent").isEqualTo(sub);
        // a later change by the same person: the actor comes from the session, and reads the same
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"some-other-session\", \"reason\": \"test\"}").status())
                .isEqualTo(201);

        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("oidc-login")).singleElement()
                .satisfies(e -> assertThat(e.actor()).isEqualTo(shown));
        assertThat(gateway.audit.events()).filteredOn(e -> e.path().equals("/api/auth/revocations")).singleElement()
                .satisfies(e -> assertThat(e.actor()).isEqualTo(shown));
        assertThat(log.messages()).filteredOn(m -> m.contains("outcome=ok mode=oidc")).singleElement().asString()
                .startsWith("event=login outcome=ok mode=oidc principal=\"" + shown + "\" roles=");
    }

    @Test
    void aSubjectWithALineBreak_isRefused_becauseNoRevocationCouldNameIt_andIsAuditedEscaped() {
        String sub = "u-9\n2026-01-01 INFO event=login outcome=ok principal=\"admin\"";
        Browser browser = gateway.browser();

        Browser.Reply callback = signIn(browser, person(sub, Map.of("groups", List.of("platform-admins"))));

        assertThat(callback.status()).isEqualTo(401);
        assertThat(callback.json().path("code").asText()).isEqualTo("OMCP_OIDC_FAILED");
        assertThat(callback.json().path("error").asText()).contains("sub claim holds control characters").doesNotContain("u-9");
        assertThat(callback.cookie("omcp_session")).isNull();
        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("oidc-login")).singleElement()
                .satisfies(e -> assertThat(e.actor()).isEqualTo("u-9\\u{A}2026-01-01 INFO event=login outcome=ok principal=\\u{22}admin\\u{22}"));
        assertThat(log.messages()).noneMatch(m -> m.contains("\n"));
    }

    @Test
    void aSubjectLongerThanAnyRealOne_isRefused_andAuditedBoundedWithADigest() {
        String sub = "s".repeat(5000);
        Browser.Reply callback = signIn(gateway.browser(), person(sub, Map.of()));

        assertThat(callback.status()).isEqualTo(401);
        assertThat(callback.body()).contains("OMCP_OIDC_FAILED").doesNotContain("ssssssssss");
        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("oidc-login")).singleElement()
                .satisfies(e -> assertThat(e.actor()).matches("s{160}\\.\\.\\.#[0-9a-f]{16}"));
    }

    @Test
    void theCallbackHandsThePageTheNewSessionsCsrfToken_andOneFromBeforeTheSignInIsRefused() {
        Browser browser = gateway.browser();
        browser.get("/api/me");
        String before = browser.csrfToken();
        assertThat(before).isNotNull();
        Browser.Reply callback = signIn(browser, person("u-7", Map.of("groups", List.of("platform-admins"))));
        assertThat(callback.cookie("omcp-csrf")).as("set by the callback itself").isNotNull();
        String after = browser.csrfToken();
        assertThat(after).isNotEqualTo(before);
        browser.cookies.put("omcp-csrf", before);

        Browser.Reply refused = browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}");

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");
        browser.cookies.put("omcp-csrf", after);
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(201);
    }

    @Test
    void aTokenWithoutTheTenantClaim_isRefused_ratherThanGivenEveryTenant() {
        // a session without a tenant operates the whole gateway: a person the provider sent without
        // one (a user whose org attribute was never set) must not get that reach
        Browser browser = gateway.browser();
        Browser.Reply callback = signIn(browser, new Person("u-no-org", Map.of("groups", List.of("sre"))));
        assertThat(callback.status()).isEqualTo(401);
        assertThat(callback.json().path("code").asText()).isEqualTo("OMCP_OIDC_FAILED");
        assertThat(callback.json().path("error").asText()).startsWith("the ID token has no org claim, which names the tenant");
        assertThat(callback.cookie("omcp_session")).isNull();
        assertThat(log.messages()).anySatisfy(line -> assertThat(line).contains("event=login outcome=refused mode=oidc")
                .contains("has no org claim"));
    }

    @Test
    void aCallbackNamingAnotherIssuer_rfc9207_isRefused_beforeItsCodeIsRedeemed() {
        Browser browser = gateway.browser();
        provider.enqueueCallback(person("u-1", Map.of("groups", List.of("sre"))));
        Browser.Reply start = browser.get("/api/auth/oidc/login");
        String back = browser.get(start.header("Location")).header("Location");
        assertThat(query(back)).doesNotContainKey("iss");

        Browser.Reply mixedUp = browser.get(local(back) + "&iss=" + URLEncoder.encode("https://attacker.example", StandardCharsets.UTF_8));

        assertThat(mixedUp.status()).isEqualTo(401);
        assertThat(mixedUp.json().path("code").asText()).isEqualTo("OMCP_OIDC_FAILED");
        assertThat(mixedUp.json().path("error").asText()).contains("another identity provider").doesNotContain("attacker");
        assertThat(mixedUp.cookie("omcp_session")).isNull();
        assertThat(drainProviderRequests()).as("asked of the provider").anyMatch(path -> path.endsWith("/authorize"))
                .noneMatch(path -> path.endsWith("/token"));
    }

    @Test
    void aPersonWithoutMappedGroupsLogsInWithoutPermissions() {
        Browser browser = gateway.browser();
        signIn(browser, person("u-9", Map.of("groups", List.of("marketing"))));
        JsonNode me = browser.get("/api/me").json();
        assertThat(me.path("roles")).isEmpty();
        assertThat(me.path("permissions")).isEmpty();
        assertThat(browser.get("/api/policy").status()).isEqualTo(403);
    }

    @Test
    void theLoginReturnsToALocalPathOnly() {
        Browser browser = gateway.browser();
        provider.enqueueCallback(person("u-1", Map.of()));
        Browser.Reply start = browser.get("/api/auth/oidc/login?returnTo=/ui/sources");
        Browser.Reply authorize = browser.get(start.header("Location"));
        assertThat(browser.get(local(authorize.header("Location"))).header("Location")).isEqualTo("/ui/sources");
        for (String evil : new String[] {"//evil.example.com", "https://evil.example.com", "/\\evil.example.com"}) {
            Browser other = gateway.browser();
            provider.enqueueCallback(person("u-1", Map.of()));
            Browser.Reply s = other.get("/api/auth/oidc/login?returnTo=" + java.net.URLEncoder.encode(evil, StandardCharsets.UTF_8));
            Browser.Reply a = other.get(s.header("Location"));
            assertThat(other.get(local(a.header("Location"))).header("Location")).as(evil).isEqualTo("/");
        }
    }

    @Test
    void aCallbackWithoutTheLoginStateCookie_orWithAnotherLoginsState_isRefused() {
        Browser victim = gateway.browser();
        provider.enqueueCallback(person("attacker", Map.of()));
        Browser.Reply start = victim.get("/api/auth/oidc/login");
        Browser.Reply authorize = victim.get(start.header("Location"));
        String callback = local(authorize.header("Location"));
        // login CSRF: the attacker's callback URL opened in a browser that never started this login
        Browser fresh = gateway.browser();
        Browser.Reply noState = fresh.get(callback);
        assertThat(noState.status()).isEqualTo(400);
        assertThat(noState.json().path("code").asText()).isEqualTo("OMCP_OIDC_STATE_INVALID");
        // a browser whose own login is in progress, with another login's callback
        Browser other = gateway.browser();
        other.get("/api/auth/oidc/login");
        Browser.Reply mismatch = other.get(callback);
        assertThat(mismatch.status()).isEqualTo(400);
        assertThat(mismatch.json().path("error").asText()).contains("does not match");
        Browser.Reply me = other.get("/api/me");
        assertThat(me.status()).isEqualTo(401);
        assertThat(me.json().path("error").asText()).as("says where to sign in")
                .isEqualTo("no valid session: sign in at GET /api/auth/oidc/login");
        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("oidc-login")).extracting(AuditEvent::status)
                .containsExactly(400, 400);
    }

    @Test
    void anExpiredLoginStateIsRefused() {
        Browser browser = gateway.browser();
        provider.enqueueCallback(person("u-1", Map.of()));
        Browser.Reply start = browser.get("/api/auth/oidc/login");
        Browser.Reply authorize = browser.get(start.header("Location"));
        clock.advance(Duration.ofMinutes(11));
        Browser.Reply late = browser.get(local(authorize.header("Location")));
        assertThat(late.status()).isEqualTo(400);
        assertThat(late.json().path("error").asText()).contains("expired");
    }

    @Test
    void anIdTokenWithAnotherLoginsNonceIsRefused() {
        Browser browser = gateway.browser();
        Browser.Reply start = browser.get("/api/auth/oidc/login");
        Map<String, String> params = query(start.header("Location"));
        // the same state and PKCE challenge, but the authorization request names a different nonce
        String forged = issuer() + "/authorize?response_type=code&client_id=" + CLIENT_ID + "&redirect_uri="
                + java.net.URLEncoder.encode(REDIRECT, StandardCharsets.UTF_8) + "&scope=openid&state=" + params.get("state")
                + "&nonce=attacker-chosen-nonce&code_challenge=" + params.get("code_challenge") + "&code_challenge_method=S256";
        provider.enqueueCallback(person("u-1", Map.of()));
        Browser.Reply authorize = browser.get(forged);
        Browser.Reply callback = browser.get(local(authorize.header("Location")));
        assertThat(callback.status()).isEqualTo(401);
        assertThat(callback.json().path("code").asText()).isEqualTo("OMCP_OIDC_FAILED");
        assertThat(callback.json().path("error").asText()).contains("nonce");
        assertThat(browser.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void aRotatedProviderKeyIsPickedUpWithoutRestart() {
        Browser first = gateway.browser();
        signIn(first, person("u-1", Map.of("groups", List.of("sre"))));
        assertThat(first.get("/api/me").status()).isEqualTo(200);
        keys.rotate("key-2");
        Browser second = gateway.browser();
        Browser.Reply callback = signIn(second, person("u-2", Map.of("groups", List.of("sre"))));
        assertThat(callback.status()).isEqualTo(302);
        assertThat(second.get("/api/me").json().path("sub").asText()).isEqualTo("u-2");
    }

    @Test
    void anIdTokenSignedWithAKeyTheProviderDoesNotPublishIsRefused_evenWithAKnownKeyId() {
        keys.signWithUnpublishedKey();
        Browser browser = gateway.browser();
        Browser.Reply callback = signIn(browser, person("u-1", Map.of("groups", List.of("platform-admins"))));
        assertThat(callback.status()).isEqualTo(401);
        assertThat(callback.json().path("error").asText()).contains("signature");
        assertThat(callback.cookie("omcp_session")).isNull();
        assertThat(browser.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void aHeadOfTheCallback_redeemsNothing_andIs405_soTheGetThatFollowsStillSignsIn() {
        Browser browser = gateway.browser();
        provider.enqueueCallback(person("u-9", Map.of("groups", List.of("sre"))));
        Browser.Reply start = browser.get("/api/auth/oidc/login");
        Browser.Reply authorize = browser.get(start.header("Location"));
        String callback = local(authorize.header("Location"));

        // a link checker or prefetcher sends HEAD: it must not redeem the code or start a session
        Browser.Reply head = browser.send("HEAD", callback, null);
        assertThat(head.status()).isEqualTo(405);
        assertThat(head.header("Allow")).isEqualTo("GET");
        assertThat(head.cookie("omcp_session")).isNull();

        Browser.Reply get = browser.get(callback);
        assertThat(get.status()).isEqualTo(302);
        assertThat(get.cookie("omcp_session")).isNotNull();
    }

    @Test
    void anErrorFromTheProviderIsA401_andNoSession() {
        Browser browser = gateway.browser();
        String state = query(browser.get("/api/auth/oidc/login").header("Location")).get("state");
        Browser.Reply reply = browser.get("/api/auth/oidc/callback?error=access_denied&error_description=The+user+cancelled&state=" + state);
        assertThat(reply.status()).isEqualTo(401);
        assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_OIDC_DENIED");
        assertThat(reply.json().path("error").asText()).isEqualTo("the identity provider did not log you in (access_denied: The user "
                + "cancelled); start again at GET /api/auth/oidc/login");
        assertThat(reply.cookie("omcp_session")).isNull();
        assertThat(browser.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void aCraftedErrorCallback_withoutThisBrowsersLoginState_isRefusedAsSuch_andRepeatsNothingOfIt() {
        // anyone can send a victim a callback URL; its error text must not speak with the gateway's voice
        Browser victim = gateway.browser();
        victim.get("/api/auth/oidc/login");
        String crafted = "/api/auth/oidc/callback?state=guessed&error=Your_account_is_suspended.Call_the_helpdesk_at_evil.example"
                + "&error_description=" + URLEncoder.encode("<script>alert(1)</script>", StandardCharsets.UTF_8);

        Browser.Reply reply = victim.get(crafted);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_OIDC_STATE_INVALID");
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.body()).doesNotContain("suspended").doesNotContain("evil").doesNotContain("script");
        Browser.Reply noLogin = gateway.browser().get(crafted);
        assertThat(noLogin.status()).isEqualTo(400);
        assertThat(noLogin.body()).doesNotContain("suspended").doesNotContain("script");
    }

    @Test
    void theProvidersErrorIsShownAndLogged_boundedAndPrintable_soItCannotForgeALogLineOrReorderText() {
        Browser browser = gateway.browser();
        String state = query(browser.get("/api/auth/oidc/login").header("Location")).get("state");
        String error = "access_denied\r\nevent=login outcome=ok principal=\"admin\"" + "A".repeat(1500);
        String description = "cancelled\u202Etxt.exe\n2026-01-01 INFO event=login outcome=ok principal=\"admin\"\u0000" + "B".repeat(1500);

        Browser.Reply reply = browser.get("/api/auth/oidc/callback?state=" + state + "&error=" + URLEncoder.encode(error, StandardCharsets.UTF_8)
                + "&error_description=" + URLEncoder.encode(description, StandardCharsets.UTF_8));

        assertThat(reply.status()).isEqualTo(401);
        String shown = reply.json().path("error").asText();
        assertThat(shown).startsWith("the identity provider did not log you in (access_denied??event?login?outcome?ok?principal??admin?AAA")
                .contains("AAA...: cancelled?txt.exe?2026-01-01 INFO event=login outcome=ok principal=?admin??BBB")
                .endsWith("BBB...); start again at GET /api/auth/oidc/login");
        assertThat(shown.length()).isLessThan(400);
        assertThat(shown.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
        List<String> lines = log.messages().stream().filter(m -> m.contains("outcome=denied")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).doesNotContain("\n").doesNotContain("\r").doesNotContain("\u202E").doesNotContain("\"admin\"")
                .startsWith("event=login outcome=denied mode=oidc error=access_denied??event?login?outcome?ok?principal??admin?AAAAAA... description=\"cancelled?")
                .contains("description=\"cancelled?txt.exe?2026-01-01 INFO event=login outcome=ok principal=?admin??BBB")
                .endsWith("BBB...\" ip=127.0.0.1");
        assertThat(log.messages()).noneMatch(m -> m.contains("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
    }

    @Test
    void callbacksFromOneAddress_areLimitedToTwentyAMinute_beforeTheProviderIsCalled() throws Exception {
        gateway.close();
        gateway = TestGateway.start(oidcEnv(Map.of("OMCP_TRUST_PROXY", "loopback")), clock);
        Browser attacker = gateway.browser();
        attacker.headers.put("X-Forwarded-For", "203.0.113.7");
        // one login state is enough to make every callback redeem a code at the provider, for ten minutes
        String state = query(attacker.get("/api/auth/oidc/login").header("Location")).get("state");
        String stateCookie = attacker.cookies.get("omcp_oidc");
        drainProviderRequests();
        for (int i = 0; i < 20; i++) {
            attacker.cookies.put("omcp_oidc", stateCookie);
            Browser.Reply guess = attacker.get("/api/auth/oidc/callback?code=guess-" + i + "&state=" + state);
            assertThat(guess.status()).as("callback %d", i + 1).isNotEqualTo(429);
        }
        assertThat(drainProviderRequests()).as("each callback redeemed its code").filteredOn(path -> path.endsWith("/token")).hasSize(20);

        attacker.cookies.put("omcp_oidc", stateCookie);
        Browser.Reply limited = attacker.get("/api/auth/oidc/callback?code=guess-21&state=" + state);

        // spec 5.2 rule 3: 20 logins per minute per IP
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.json().path("code").asText()).isEqualTo("OMCP_LOGIN_RATE_LIMIT");
        assertThat(limited.json().path("retryAfterSeconds").asLong()).isEqualTo(60);
        assertThat(limited.header("Retry-After")).isEqualTo("60");
        assertThat(limited.cookie("omcp_oidc")).as("the login state is kept, so the same callback works after Retry-After").isNull();
        assertThat(drainProviderRequests()).as("nothing was sent to the provider").isEmpty();
        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("oidc-login")).extracting(AuditEvent::status).last()
                .isEqualTo(429);

        // another address signs in meanwhile, and this one again once its minute is over
        Browser other = gateway.browser();
        other.headers.put("X-Forwarded-For", "203.0.113.8");
        assertThat(signIn(other, person("u-2", Map.of())).status()).isEqualTo(302);
        clock.advance(Duration.ofSeconds(60));
        assertThat(signIn(attacker, person("u-1", Map.of())).status()).isEqualTo(302);
    }

    @Test
    void callbacksFromOneIpv6Slash64_shareOneLimitOfTwentyAMinute_whileTheNeighbouringSlash64SignsIn() throws Exception {
        gateway.close();
        gateway = TestGateway.start(oidcEnv(Map.of("OMCP_TRUST_PROXY", "loopback")), clock);
        Browser attacker = gateway.browser();
        attacker.headers.put("X-Forwarded-For", "2001:db8:1:2::1");
        String state = query(attacker.get("/api/auth/oidc/login").header("Location")).get("state");
        String stateCookie = attacker.cookies.get("omcp_oidc");
        // a client given a /64 rotates its address on every callback: each is a fresh address, one network
        for (int i = 0; i < 20; i++) {
            attacker.headers.put("X-Forwarded-For", "2001:db8:1:2:" + Integer.toHexString(i + 1) + ":abcd:" + Integer.toHexString((i * 7919) & 0xffff) + ":1");
            attacker.cookies.put("omcp_oidc", stateCookie);
            Browser.Reply guess = attacker.get("/api/auth/oidc/callback?code=guess-" + i + "&state=" + state);
            assertThat(guess.status()).as("callback %d", i + 1).isNotEqualTo(429);
        }
        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("oidc-login")).extracting(AuditEvent::ip)
                .as("twenty addresses, all in one /64").hasSize(20).doesNotHaveDuplicates().allMatch(ip -> ip.startsWith("2001:db8:1:2:"));
        drainProviderRequests();

        attacker.headers.put("X-Forwarded-For", "2001:0db8:0001:0002:ffff:ffff:ffff:ffff");
        attacker.cookies.put("omcp_oidc", stateCookie);
        Browser.Reply limited = attacker.get("/api/auth/oidc/callback?code=guess-21&state=" + state);

        // spec 5.2 rule 3: 20 sign-ins per minute per address, an IPv6 address counted by its /64 (ClientNetwork)
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.json().path("code").asText()).isEqualTo("OMCP_LOGIN_RATE_LIMIT");
        assertThat(limited.header("Retry-After")).isEqualTo("60");
        assertThat(drainProviderRequests()).as("nothing was sent to the provider").isEmpty();

        Browser neighbour = gateway.browser();
        neighbour.headers.put("X-Forwarded-For", "2001:db8:1:3::1");
        assertThat(signIn(neighbour, person("u-2", Map.of())).status()).as("the next /64 has a counter of its own").isEqualTo(302);
    }

    @Test
    void claimsWhoseSessionDoesNotFitInTheCookie_are500SessionTooLarge_withNoSessionCookie_andCounted() throws Exception {
        String manyRoles = java.util.stream.IntStream.range(0, 65).mapToObj(i -> "\"role-" + i + "\"")
                .collect(java.util.stream.Collectors.joining(", "));
        String longRoles = java.util.stream.IntStream.range(0, 40).mapToObj(i -> "\"team-" + i + "-" + "x".repeat(100) + "\"")
                .collect(java.util.stream.Collectors.joining(", "));
        gateway.close();
        gateway = TestGateway.start(oidcEnv(Map.of("OMCP_OIDC_ROLE_MAP", "{\"everyone\": [" + manyRoles + "], \"long\": [" + longRoles + "]}")),
                clock);

        Browser many = gateway.browser();
        Browser.Reply tooMany = signIn(many, person("u-many", Map.of("groups", List.of("everyone"))));
        Browser wordy = gateway.browser();
        Browser.Reply tooLong = signIn(wordy, person("u-long", Map.of("groups", List.of("long"))));

        // docs/access-control.md: the right credentials, but the session would not verify whole
        assertThat(tooMany.status()).as(tooMany.body()).isEqualTo(500);
        assertThat(tooMany.json().path("code").asText()).isEqualTo("OMCP_SESSION_TOO_LARGE");
        assertThat(tooMany.json().path("error").asText()).contains("holds 65 roles").contains("at most 64");
        assertThat(tooLong.status()).as(tooLong.body()).isEqualTo(500);
        assertThat(tooLong.json().path("code").asText()).isEqualTo("OMCP_SESSION_TOO_LARGE");
        assertThat(tooLong.json().path("error").asText()).contains("does not fit in the session cookie")
                .contains("shorten the role names").doesNotContain("x".repeat(100));
        for (Browser.Reply refused : List.of(tooMany, tooLong)) {
            assertThat(refused.cookie("omcp_session")).as("no session cookie that could not verify").isNull();
        }
        assertThat(many.get("/api/me").status()).isEqualTo(401);
        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("oidc-login")).extracting(AuditEvent::status)
                .containsExactly(500, 500);
        // the request logger counts a refusal once its answer is sent: poll briefly rather than race it
        String counted = "omcp_login_refusals_total{code=\"OMCP_SESSION_TOO_LARGE\"} 2.0";
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String metrics = many.get("/metrics").body();
        while (!metrics.contains(counted) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            metrics = many.get("/metrics").body();
        }
        assertThat(metrics).contains(counted);
    }

    /** The paths the provider was asked for since the last call. */
    private List<String> drainProviderRequests() {
        List<String> paths = new java.util.ArrayList<>();
        while (true) {
            try {
                paths.add(provider.takeRequest(200, TimeUnit.MILLISECONDS).getRequestUrl().encodedPath());
            } catch (RuntimeException noneWithinTheTimeout) {
                return paths;
            }
        }
    }

    @Test
    void inOidcMode_passwordLoginIsOff_andA401PointsToTheProvider() {
        Browser browser = gateway.browser();
        assertThat(browser.login("alice", "x").json().path("code").asText()).isEqualTo("OMCP_LOGIN_NOT_AVAILABLE");
        Browser.Reply refused = browser.get("/api/policy");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.json().path("mode").asText()).isEqualTo("oidc");
        assertThat(refused.json().path("error").asText()).contains("/api/auth/oidc/login");
        assertThat(browser.get("/api/info").json().path("governance").path("authMode").asText()).isEqualTo("oidc");
    }

    @Test
    void profilesSetClaimDefaults_keycloakReadsNestedRealmRoles() {
        gateway.close();
        Map<String, String> env = oidcEnv(Map.of("OMCP_OIDC_PROFILE", "keycloak"));
        env.remove("OMCP_OIDC_ROLE_MAP");
        gateway = TestGateway.start(env, clock);
        Browser browser = gateway.browser();
        signIn(browser, person("kc-1", Map.of("realm_access", Map.of("roles", List.of("viewer", "offline_access")))));
        assertThat(browser.get("/api/me").json().path("roles").toString()).isEqualTo("[\"viewer\"]");
    }

    @Test
    void anUnreachableProviderIs502() {
        gateway.close();
        gateway = TestGateway.start(oidcEnv(Map.of("OMCP_OIDC_ISSUER", "http://127.0.0.1:9/nowhere")), clock);
        Browser.Reply reply = gateway.browser().get("/api/auth/oidc/login");
        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_OIDC_UNAVAILABLE");
    }

    @Test
    void dynamicClientRegistration_onlyWhenEnabled() {
        Browser browser = gateway.browser();
        String request = "{\"redirect_uris\": [\"http://127.0.0.1:33418/callback\"], \"client_name\": \"Cursor\","
                + " \"token_endpoint_auth_method\": \"none\"}";
        assertThat(browser.post("/api/auth/oidc/register", request).status()).as("off by default").isEqualTo(404);
        gateway.close();
        gateway = TestGateway.start(oidcEnv(Map.of("OMCP_OIDC_DCR_ENABLED", "true")), clock);
        Browser client = gateway.browser();
        client.sendCsrf = false;
        Browser.Reply registered = client.post("/api/auth/oidc/register", request);
        assertThat(registered.status()).isEqualTo(201);
        JsonNode body = registered.json();
        assertThat(body.path("client_id").asText()).matches("[0-9a-f-]{36}");
        assertThat(body.has("client_secret")).isFalse();
        assertThat(body.path("redirect_uris").toString()).isEqualTo("[\"http://127.0.0.1:33418/callback\"]");
        assertThat(body.path("grant_types").toString()).isEqualTo("[\"authorization_code\"]");
        Browser.Reply confidential = client.post("/api/auth/oidc/register", "{\"redirect_uris\": [\"https://app.example.com/cb\"]}");
        assertThat(confidential.json().path("client_secret").asText()).hasSizeGreaterThanOrEqualTo(43);
        // RFC 7591 3.2.1: kept 24 hours for certain, after which it may be removed to make room; 0 would promise forever
        assertThat(confidential.json().path("client_secret_expires_at").asLong())
                .isEqualTo(confidential.json().path("client_id_issued_at").asLong() + 24 * 3600);
        Browser.Reply rejected = client.post("/api/auth/oidc/register", "{\"redirect_uris\": [\"http://evil.example.com/cb\"]}");
        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.json().path("error").asText()).isEqualTo("invalid_redirect_uri");
        assertThat(client.post("/api/auth/oidc/register", "{\"redirect_uris\": \"https://a/cb\"}").json().path("error").asText())
                .isEqualTo("invalid_client_metadata");
        // a right-to-left override (U+202E) between "Cursor" and "gnp.exe" makes the name read "Cursorexe.png" wherever it is shown
        Browser.Reply bidi = client.post("/api/auth/oidc/register",
                "{\"redirect_uris\": [\"https://app.example.com/cb\"], \"client_name\": \"Cursor\\u202Egnp.exe\"}");
        assertThat(bidi.status()).isEqualTo(400);
        assertThat(bidi.json().path("code").asText()).isEqualTo("OMCP_DCR_REJECTED");
        assertThat(bidi.json().path("error").asText()).isEqualTo("invalid_client_metadata");
        assertThat(bidi.json().path("error_description").asText()).isEqualTo("client_name holds U+202E, a control or invisible formatting "
                + "character (such as a line break or a bidi override); send it as plain text without such characters");
        assertThat(gateway.audit.events()).filteredOn(e -> e.action().equals("client-register") && e.status() == 201).hasSize(2);
        AuditEvent audited = gateway.audit.events().stream().filter(e -> e.action().equals("client-register")).findFirst().orElseThrow();
        assertThat(audited.target()).isEqualTo(body.path("client_id").asText());
    }

    @Test
    void clientRegistrationBodiesFollowTheBodyRules_inTheRfc7591ErrorShape_andRegisterNothingWhenRefused() throws Exception {
        gateway.close();
        Path store = dir.resolve("clients.json");
        gateway = TestGateway.start(oidcEnv(Map.of("OMCP_OIDC_DCR_ENABLED", "true", "OMCP_OIDC_DCR_STORE", store.toString())), clock);
        String valid = "{\"redirect_uris\": [\"https://app.example.com/cb\"]}";

        // RFC 7591 3.1: the client sends application/json; a text/plain POST is also what a cross-site form can send
        HttpResponse<String> plain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.base() + "/api/auth/oidc/register"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(valid))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(415);
        JsonNode plainBody = new com.fasterxml.jackson.databind.ObjectMapper().readTree(plain.body());
        assertThat(plainBody.path("error").asText()).isEqualTo("invalid_client_metadata");
        assertThat(plainBody.path("code").asText()).isEqualTo("OMCP_UNSUPPORTED_MEDIA_TYPE");
        assertThat(plainBody.path("error_description").asText()).contains("application/json");

        Browser client = gateway.browser();
        client.sendCsrf = false;
        for (String body : List.of("{\"redirect_uris\": [\"https://app.example.com/cb\"], \"redirect_uris\": [\"https://evil.example.com/cb\"]}",
                "not json", "[]", "{\"redirect_uris\": [\"https://app.example.com/cb\"], \"jwks\": " + "[".repeat(100) + "]".repeat(100) + "}")) {
            Browser.Reply refused = client.post("/api/auth/oidc/register", body);
            String label = body.length() > 60 ? body.substring(0, 60) : body;
            assertThat(refused.status()).as(label).isEqualTo(400);
            // section 3.2.2: error is one of the RFC's codes, error_description the text
            assertThat(refused.json().path("error").asText()).as(label).isEqualTo("invalid_client_metadata");
            assertThat(refused.json().path("code").asText()).as(label).isEqualTo("OMCP_INVALID_BODY");
            assertThat(refused.json().path("error_description").asText()).as(label).isNotBlank();
        }
        assertThat(dev.omcp.adapters.storage.auth.JsonClientRegistrationFile.open(store).count()).as("nothing registered").isZero();

        // section 2: metadata the server does not understand is ignored, not refused
        Browser.Reply extra = client.post("/api/auth/oidc/register",
                "{\"redirect_uris\": [\"https://app.example.com/cb\"], \"logo_uri\": \"https://app.example.com/logo.png\"}");
        assertThat(extra.status()).as(extra.body()).isEqualTo(201);
        assertThat(extra.json().has("logo_uri")).isFalse();
        assertThat(dev.omcp.adapters.storage.auth.JsonClientRegistrationFile.open(store).count()).isEqualTo(1);
    }
}
