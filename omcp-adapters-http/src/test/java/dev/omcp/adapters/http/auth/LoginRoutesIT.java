package dev.omcp.adapters.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionRevocations;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How each refused login becomes an HTTP answer, on a real Javalin server on port 0. The login
 * decisions themselves are core logic (PasswordLoginServiceTest); a saturated verifier cannot be
 * produced on demand through a whole gateway, so its 503 is proven here at the route.
 */
class LoginRoutesIT {
    private final AtomicReference<LoginResult> next = new AtomicReference<>();
    private final List<String> auditActors = new CopyOnWriteArrayList<>();
    private final List<String> passwordsTried = new CopyOnWriteArrayList<>();
    private final List<String> revoked = new CopyOnWriteArrayList<>();
    private final byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private Javalin app;

    @BeforeEach
    void start() {
        SessionAuthority sessions = new SessionAuthority() {
            @Override
            public dev.omcp.ports.auth.SessionClaims open(dev.omcp.ports.auth.SessionSubject subject) {
                throw new UnsupportedOperationException("these tests open no session");
            }

            @Override
            public dev.omcp.ports.auth.SessionCheck check(dev.omcp.ports.auth.SessionClaims claims) {
                throw new UnsupportedOperationException("these tests check no session");
            }

            @Override
            public void close(dev.omcp.ports.auth.SessionClaims claims) {}

            @Override
            public Duration lifetime() {
                return Duration.ofHours(12);
            }
        };
        SessionRevocations revocations = new SessionRevocations() {
            @Override
            public dev.omcp.ports.auth.Revocation revoke(dev.omcp.ports.auth.RevocationTarget target, String value, String reason,
                    dev.omcp.ports.identity.Principal by) {
                revoked.add(target + ":" + value);
                return new dev.omcp.ports.auth.Revocation(target, value, reason, java.time.Instant.EPOCH, by.id());
            }

            @Override
            public java.util.List<dev.omcp.ports.auth.Revocation> current(dev.omcp.ports.identity.Principal viewer) {
                return java.util.List.of();
            }

            @Override
            public Optional<java.time.Instant> allSessionsRevokedAt() {
                return Optional.empty();
            }
        };
        PasswordLogin login = new PasswordLogin() {
            @Override
            public LoginResult login(String username, String password, String clientIp) {
                passwordsTried.add(password);
                return next.get();
            }

            @Override
            public boolean isKnownUser(String username) {
                return username.equals("sam");
            }
        };
        LoginRoutes routes = new LoginRoutes(AuthMode.BASIC, Optional.of(login), sessions, new SessionCookies(secret),
                new CsrfProtection(true, secret, new java.security.SecureRandom()), revocations);
        ApiGuard recordingActors = (ctx, route, handler) -> {
            ApiGuard.open().handle(ctx, route, handler);
            auditActors.add(ApiCaller.auditActor(ctx).orElse("(none)"));
        };
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            routes.register(new ApiRoutes(config.routes, recordingActors));
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> login() throws Exception {
        return login("sam");
    }

    private HttpResponse<String> login(String username) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/api/auth/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"" + username + "\",\"password\":\"whatever\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String contentType, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aLoginBodyNotDeclaredJson_is415_andNoPasswordIsChecked() throws Exception {
        next.set(new LoginResult.InvalidCredentials());

        HttpResponse<String> response = post("/api/auth/login", "text/plain", "{\"username\":\"sam\",\"password\":\"right\"}");

        assertThat(response.statusCode()).isEqualTo(415);
        assertThat(response.body()).contains("\"code\":\"OMCP_UNSUPPORTED_MEDIA_TYPE\"").doesNotContain("right");
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
        assertThat(passwordsTried).isEmpty();
    }

    @Test
    void aLoginBodyWithTwoPasswords_isRefused_notReadWithTheLastOneWinning() throws Exception {
        next.set(new LoginResult.InvalidCredentials());

        HttpResponse<String> response = post("/api/auth/login", "application/json",
                "{\"username\":\"sam\",\"password\":\"first-guess\",\"password\":\"second-guess\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":\"OMCP_INVALID_BODY\"").contains("duplicate keys")
                .doesNotContain("first-guess").doesNotContain("second-guess");
        assertThat(passwordsTried).isEmpty();
    }

    @Test
    void aLoginBodyWithAnUnknownField_is400NamingIt_andNoPasswordIsChecked() throws Exception {
        next.set(new LoginResult.InvalidCredentials());

        HttpResponse<String> response = post("/api/auth/login", "application/json",
                "{\"username\":\"sam\",\"password\":\"the-password\",\"remember\":true}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":\"OMCP_INVALID_BODY\"").contains("'remember'").doesNotContain("the-password");
        assertThat(passwordsTried).isEmpty();
    }

    @Test
    void aLoginFieldOfTheWrongKind_keepsItsDocumentedCode_andEchoesNoValue() throws Exception {
        HttpResponse<String> response = post("/api/auth/login", "application/json", "{\"username\":\"sam\",\"password\":[\"s3cret\"]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":\"OMCP_BAD_REQUEST\"").doesNotContain("s3cret");
        assertThat(passwordsTried).isEmpty();
    }

    @Test
    void revocationBodiesFollowTheSameRules_andRevokeNothingWhenRefused() throws Exception {
        HttpResponse<String> plain = post("/api/auth/revocations", "text/plain", "{\"sub\":\"alice\"}");
        assertThat(plain.statusCode()).isEqualTo(415);
        assertThat(plain.body()).contains("\"code\":\"OMCP_UNSUPPORTED_MEDIA_TYPE\"");

        HttpResponse<String> unknown = post("/api/auth/revocations", "application/json", "{\"sub\":\"alice\",\"until\":\"forever\"}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("\"code\":\"OMCP_INVALID_BODY\"").contains("'until'");

        HttpResponse<String> twice = post("/api/auth/revocations", "application/json", "{\"sub\":\"alice\",\"sub\":\"bob\"}");
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(twice.body()).contains("\"code\":\"OMCP_INVALID_BODY\"");
        assertThat(revoked).isEmpty();

        // a field is given a value or left out: null is refused like on every route (docs/management-api.md)
        HttpResponse<String> nullReason = post("/api/auth/revocations", "application/json", "{\"sub\":\"alice\",\"reason\":null}");
        assertThat(nullReason.statusCode()).isEqualTo(400);
        assertThat(nullReason.body()).contains("\"code\":\"OMCP_BAD_REQUEST\"").contains("reason: null is not accepted");
        assertThat(revoked).isEmpty();

        HttpResponse<String> valid = post("/api/auth/revocations", "application/json", "{\"sub\":\"alice\"}");
        assertThat(valid.statusCode()).as(valid.body()).isEqualTo(201);
        assertThat(revoked).containsExactly("SUB:alice");
    }

    @Test
    void whenEveryPasswordVerificationSlotIsTaken_theLoginIs503WithRetryAfterAndACode_andSetsNoCookie() throws Exception {
        next.set(new LoginResult.Busy(Duration.ofSeconds(1)));

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).contains("1");
        assertThat(response.body()).contains("\"code\":\"OMCP_LOGIN_BUSY\"").contains("try again");
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
    }

    @Test
    void spec7_4_aLockedAccountIs429WithRetryAfterInWholeSeconds() throws Exception {
        next.set(new LoginResult.AccountLocked(Duration.ofMillis(59_200)));

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).isEqualTo(429);
        // rounded up: a client that waits Retry-After seconds must find the lock gone
        assertThat(response.headers().firstValue("Retry-After")).contains("60");
        assertThat(response.body()).contains("\"code\":\"OMCP_LOGIN_LOCKED\"").contains("\"retryAfterSeconds\":60");
    }

    @Test
    void spec7_4_moreThan20LoginsPerMinuteFromOneAddressIs429WithItsOwnCode() throws Exception {
        next.set(new LoginResult.TooManyAttempts(Duration.ofSeconds(42)));

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("Retry-After")).contains("42");
        assertThat(response.body()).contains("\"code\":\"OMCP_LOGIN_RATE_LIMIT\"");
    }

    @Test
    void aNewAddressWhileTheAddressTableIsFull_is429WithItsOwnCode_notTheRateLimitOne() throws Exception {
        next.set(new LoginResult.AddressTableFull(Duration.ofSeconds(60), 100_000));

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).as("fails closed").isEqualTo(429);
        assertThat(response.headers().firstValue("Retry-After")).contains("60");
        assertThat(response.body()).contains("\"code\":\"OMCP_LOGIN_ADDRESS_TABLE_FULL\"").contains("\"retryAfterSeconds\":60")
                .doesNotContain("OMCP_LOGIN_RATE_LIMIT").doesNotContain("whatever");
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
        assertThat(auditActors).containsExactly("sam");
    }

    @Test
    void refusalsOfAFullAddressTable_areLoggedOnce_notOncePerRequest() throws Exception {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events = new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(AddressTableFullWarnings.class);
        events.start();
        logger.addAppender(events);
        try {
            next.set(new LoginResult.AddressTableFull(Duration.ofSeconds(60), 100_000));
            for (int i = 0; i < 3; i++) {
                assertThat(login().statusCode()).isEqualTo(429);
            }
            next.set(new LoginResult.TooManyAttempts(Duration.ofSeconds(5)));
            assertThat(login().statusCode()).isEqualTo(429);

            assertThat(events.list).singleElement().extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).asString()
                    .startsWith("event=login-address-table-full capacity=100000 refused=1 ");
        } finally {
            logger.detachAppender(events);
        }
    }

    @Test
    void invalidCredentialsAre401WithACode_andSetNoCookie() throws Exception {
        next.set(new LoginResult.InvalidCredentials());

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.body()).contains("\"code\":\"OMCP_INVALID_CREDENTIALS\"");
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
    }

    @Test
    void aFailedLoginOfAKnownUser_isAuditedWithTheUsername() throws Exception {
        next.set(new LoginResult.InvalidCredentials());

        assertThat(login("sam").statusCode()).isEqualTo(401);

        assertThat(auditActors).containsExactly("sam");
    }

    @Test
    void aFailedLoginWhoseUsernameIsNoUser_isAuditedWithAPlaceholder_notWithWhatWasTyped() throws Exception {
        String typedPassword = "hunter2-Correct-Horse";
        next.set(new LoginResult.InvalidCredentials());
        assertThat(login(typedPassword).statusCode()).isEqualTo(401);
        next.set(new LoginResult.TooManyAttempts(Duration.ofSeconds(5)));
        assertThat(login(typedPassword).statusCode()).isEqualTo(429);
        next.set(new LoginResult.Busy(Duration.ofSeconds(1)));
        assertThat(login(typedPassword).statusCode()).isEqualTo(503);
        next.set(new LoginResult.AddressTableFull(Duration.ofSeconds(60), 100_000));
        assertThat(login(typedPassword).statusCode()).isEqualTo(429);

        assertThat(auditActors).containsExactly("unknown-user", "unknown-user", "unknown-user", "unknown-user");
    }

    @Test
    void spec3_3_aLockedAccountIsAuditedWithTheUsername_evenWhenItIsNoUser() throws Exception {
        next.set(new LoginResult.AccountLocked(Duration.ofSeconds(60)));

        assertThat(login("mallory").statusCode()).isEqualTo(429);

        assertThat(auditActors).containsExactly("mallory");
    }

    private static dev.omcp.ports.auth.SessionClaims session(String name, List<String> roles, String tenant) {
        return new dev.omcp.ports.auth.SessionClaims("sam", name, roles, 1_700_000_000L, 1_700_043_200L, "sid-1234567890", tenant);
    }

    private static List<String> roles(int count) {
        return java.util.stream.IntStream.range(0, count).mapToObj(i -> "role-" + i).toList();
    }

    @Test
    void aLoginWhoseSessionDoesNotFitInTheCookie_is500NamingWhatIsTooLong_andSetsNoCookieThatCouldNotVerify() throws Exception {
        // control characters are JSON-escaped to six bytes each: 600 of them are 4800 characters of cookie
        String name = "\u0001".repeat(600);
        next.set(new LoginResult.LoggedIn(session(name, List.of("viewer"), "acme")));

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).as(response.body()).isEqualTo(500);
        assertThat(response.body()).contains("\"code\":\"OMCP_SESSION_TOO_LARGE\"").contains("does not fit in the session cookie")
                .contains("at most " + SessionCookies.MAX_VALUE).contains("shorten the display name").doesNotContain("\\u0001");
        assertThat(response.headers().allValues("Set-Cookie")).as("neither a session nor its CSRF token").isEmpty();
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(auditActors).containsExactly("sam");
    }

    @Test
    void aLoginWithMoreRolesThanACookieCarries_is500_notACookieThatSilentlyDropsRoles() throws Exception {
        next.set(new LoginResult.LoggedIn(session("Sam", roles(SessionCookies.MAX_ROLES + 1), "")));

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).as(response.body()).isEqualTo(500);
        assertThat(response.body()).contains("\"code\":\"OMCP_SESSION_TOO_LARGE\"").contains("holds 65 roles")
                .contains("at most 64");
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
    }

    @Test
    void aSessionThatJustFits_isIssued_andItsCookieVerifiesWithEveryRoleAndTheWholeName() throws Exception {
        SessionCookies codec = new SessionCookies(secret);
        int length = 1;
        while (codec.problem(session("\u00e9".repeat(length + 1), roles(SessionCookies.MAX_ROLES), "acme")).isEmpty()) {
            length++;
        }
        dev.omcp.ports.auth.SessionClaims largest = session("\u00e9".repeat(length), roles(SessionCookies.MAX_ROLES), "acme");
        next.set(new LoginResult.LoggedIn(largest));

        HttpResponse<String> response = login();

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String cookie = response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(SessionCookies.NAME + "="))
                .findFirst().orElseThrow();
        String value = cookie.substring(SessionCookies.NAME.length() + 1, cookie.indexOf(';'));
        assertThat(value.length()).isBetween(SessionCookies.MAX_VALUE - 4, SessionCookies.MAX_VALUE);
        assertThat(SessionCookies.NAME.length() + 1 + value.length()).as("name and value fit what browsers keep").isLessThanOrEqualTo(4096);
        assertThat(codec.decode(value)).as("the next request verifies it, with nothing dropped").contains(largest);
    }

    @Test
    void loginAndLogoutAnswers_mayNotBeStoredByACache() throws Exception {
        next.set(new LoginResult.LoggedIn(session("Sam", List.of("viewer"), "")));
        HttpResponse<String> loggedIn = login();
        assertThat(loggedIn.statusCode()).isEqualTo(200);
        assertThat(loggedIn.headers().firstValue("Cache-Control")).contains("no-store");

        next.set(new LoginResult.InvalidCredentials());
        HttpResponse<String> refused = login();
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("Cache-Control")).contains("no-store");

        HttpResponse<String> loggedOut = post("/api/auth/logout", "application/json", "");
        assertThat(loggedOut.statusCode()).isEqualTo(204);
        assertThat(loggedOut.headers().allValues("Set-Cookie")).anyMatch(c -> c.startsWith(SessionCookies.NAME + "=;"));
        assertThat(loggedOut.headers().firstValue("Cache-Control")).contains("no-store");
    }
}
