package dev.omcp.adapters.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.http.access.ManagementGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditTrail;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.auth.SessionSubject;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Logout while the session store (the shared Redis blocklist) does not answer, on a real Javalin
 * server on port 0 behind the real {@link ManagementGuard}: the browser's cookies are cleared as
 * spec 4.2 says, but the answer does not pretend the session was ended (a copied cookie stays
 * valid until it expires), and the operator's log says so. The outage is the port's own signal,
 * {@link SharedStateUnavailableException}, thrown by a session authority that can be switched off;
 * that Redis raises it is proven in omcp-app (SharedStoreOutageIT).
 */
class LogoutSessionStoreOutageIT {
    private static final String SID = "sid-0123456789abcdefghij";
    private static final String OUTAGE = "the shared store redis 127.0.0.1:6390 (OMCP_REDIS_URL) did not answer (JedisConnectionException)";

    /** Sessions whose blocklist can stop answering on reads, on writes, or both. */
    private static final class SwitchableSessions implements SessionAuthority {
        final List<String> closed = Collections.synchronizedList(new ArrayList<>());
        volatile boolean readsFail;
        volatile boolean writesFail;
        volatile boolean blocklistFull;

        @Override
        public SessionClaims open(SessionSubject subject) {
            throw new UnsupportedOperationException("the login of these tests hands over its session");
        }

        @Override
        public SessionCheck check(SessionClaims claims) {
            if (readsFail) {
                throw new SharedStateUnavailableException(OUTAGE);
            }
            return new SessionCheck.Valid(new Principal(claims.sub(), claims.name(), AuthKind.SESSION, claims.tenant(),
                    new LinkedHashSet<>(claims.roles()), Optional.of(claims.sid())));
        }

        @Override
        public void close(SessionClaims claims) {
            if (writesFail) {
                throw new SharedStateUnavailableException(OUTAGE);
            }
            if (blocklistFull) {
                throw new IllegalStateException("the session blocklist holds its maximum of 100000 entries");
            }
            closed.add(claims.sid());
        }

        @Override
        public Duration lifetime() {
            return Duration.ofHours(12);
        }
    }

    private static final class RecordingTrail implements AuditTrail {
        final List<AuditEvent> events = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void record(AuditEvent event) {
            events.add(event);
        }

        @Override
        public Optional<String> unavailable() {
            return Optional.empty();
        }
    }

    /** The logout route needs no permission; the revocation routes registered with it need users:delete. */
    private static final class AllowAll implements AccessPolicy {
        @Override
        public AccessDecision decide(Principal principal, Permission permission) {
            return new AccessDecision.Allowed();
        }

        @Override
        public List<Permission> permissionsOf(Principal principal) {
            return catalog();
        }

        @Override
        public List<Permission> catalog() {
            return List.of(new Permission("users", "delete"));
        }

        @Override
        public PolicyView view() {
            return new PolicyView(Map.of(), List.of(), "test");
        }
    }

    private static final class NoRevocations implements SessionRevocations {
        @Override
        public Revocation revoke(RevocationTarget target, String value, String reason, Principal by) {
            throw new AssertionError("these tests revoke through logout only");
        }

        @Override
        public List<Revocation> current(Principal viewer) {
            return List.of();
        }

        @Override
        public Optional<Instant> allSessionsRevokedAt() {
            return Optional.empty();
        }
    }

    private final byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private final SwitchableSessions sessions = new SwitchableSessions();
    private final RecordingTrail audit = new RecordingTrail();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger routesLogger = (Logger) LoggerFactory.getLogger(LoginRoutes.class);
    private Javalin app;

    @BeforeEach
    void start() {
        log.start();
        routesLogger.addAppender(log);
        long now = Instant.now().getEpochSecond();
        SessionClaims session = new SessionClaims("sam", "Sam", List.of("viewer"), now, now + 3600, SID, "");
        PasswordLogin login = new PasswordLogin() {
            @Override
            public LoginResult login(String username, String password, String clientIp) {
                return new LoginResult.LoggedIn(session);
            }

            @Override
            public boolean isKnownUser(String username) {
                return true;
            }
        };
        SessionCookies cookies = new SessionCookies(secret);
        CsrfProtection csrf = new CsrfProtection(true, secret, new SecureRandom());
        LoginRoutes routes = new LoginRoutes(AuthMode.BASIC, Optional.of(login), sessions, cookies, csrf, new NoRevocations());
        ManagementGuard guard = new ManagementGuard(AuthMode.BASIC, cookies, sessions, new AllowAll(), csrf, TrustedProxies.none(), audit);
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            routes.register(new ApiRoutes(config.routes, guard));
        }).start();
    }

    @AfterEach
    void stop() {
        routesLogger.detachAppender(log);
        app.stop();
    }

    /** The cookies a browser keeps after a login: {@code omcp_session=...; omcp-csrf=...}, and the CSRF token. */
    private record Browser(String cookieHeader, String csrfToken) {}

    private Browser loggedIn() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/api/auth/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"sam\",\"password\":\"whatever\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String session = cookieValue(response, SessionCookies.NAME);
        String token = cookieValue(response, CsrfProtection.COOKIE);
        return new Browser(SessionCookies.NAME + "=" + session + "; " + CsrfProtection.COOKIE + "=" + token, token);
    }

    private static String cookieValue(HttpResponse<String> response, String name) {
        String cookie = response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(name + "=")).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " cookie was set"));
        return cookie.substring(name.length() + 1, cookie.indexOf(';'));
    }

    private HttpResponse<String> logout(Browser browser) throws Exception {
        return client.send(HttpRequest.newBuilder(uri("/api/auth/logout")).header("Cookie", browser.cookieHeader())
                .header(CsrfProtection.HEADER, browser.csrfToken()).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + app.port() + path);
    }

    private List<String> errorLines() {
        return log.list.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static void assertCookiesCleared(HttpResponse<String> response) {
        assertThat(response.headers().allValues("Set-Cookie"))
                .anySatisfy(c -> assertThat(c).startsWith(SessionCookies.NAME + "=;").contains("Max-Age=0"))
                .anySatisfy(c -> assertThat(c).startsWith(CsrfProtection.COOKIE + "=;").contains("Max-Age=0"));
    }

    private static void assertSaysTheSessionWasNotEnded(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        JsonNode body = new ObjectMapper().readTree(response.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_SESSION_NOT_ENDED");
        assertThat(body.path("error").asText()).contains("logged out in this browser").contains("could not be ended on the server")
                .contains("session store").contains("stays valid until it expires").contains("POST /api/auth/revocations")
                .contains("\"sub\"").doesNotContain(SID).doesNotContain("127.0.0.1");
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
    }

    private void assertLoggedOnce(Browser browser) {
        assertThat(errorLines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("event=logout-revocation-failed principal=\"sam\" ").contains("did not answer")
                .doesNotContain(SID).doesNotContain(browser.csrfToken())
                .doesNotContain(browser.cookieHeader().substring(SessionCookies.NAME.length() + 1, 40)));
    }

    @Test
    void logoutWhileTheSessionStoreIsDown_clearsTheCookies_butAnswers503SayingTheSessionWasNotEnded_andLogsIt() throws Exception {
        Browser browser = loggedIn();
        sessions.readsFail = true;
        sessions.writesFail = true;

        HttpResponse<String> response = logout(browser);

        assertSaysTheSessionWasNotEnded(response);
        assertCookiesCleared(response);
        assertThat(sessions.closed).isEmpty();
        assertLoggedOnce(browser);
        assertThat(audit.events).last().satisfies(event -> {
            assertThat(event.action()).isEqualTo("logout");
            assertThat(event.status()).isEqualTo(503);
            assertThat(event.actor()).as("the signed cookie names its subject, even unchecked").isEqualTo("sam");
        });
    }

    @Test
    void aStoreThatStopsAnsweringBetweenTheCheckAndTheRevocation_isReportedTheSameWay() throws Exception {
        Browser browser = loggedIn();
        sessions.writesFail = true;

        HttpResponse<String> response = logout(browser);

        assertSaysTheSessionWasNotEnded(response);
        assertCookiesCleared(response);
        assertLoggedOnce(browser);
    }

    @Test
    void logoutWithoutASession_isStill204_whileTheStoreIsDown() throws Exception {
        sessions.readsFail = true;
        sessions.writesFail = true;
        String token = "a".repeat(43);

        HttpResponse<String> response = logout(new Browser(CsrfProtection.COOKIE + "=" + token, token));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
        assertCookiesCleared(response);
        assertThat(errorLines()).isEmpty();
    }

    @Test
    void logoutWhileTheStoreAnswers_is204_andRevokesTheSession() throws Exception {
        Browser browser = loggedIn();

        HttpResponse<String> response = logout(browser);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
        assertCookiesCleared(response);
        assertThat(sessions.closed).containsExactly(SID);
        assertThat(errorLines()).isEmpty();
    }

    @Test
    void aFullBlocklist_clearsTheCookies_butAnswers507SayingTheSessionWasNotEnded_notA204() throws Exception {
        Browser browser = loggedIn();
        sessions.blocklistFull = true;

        HttpResponse<String> response = logout(browser);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(507);
        JsonNode body = new ObjectMapper().readTree(response.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_BLOCKLIST_FULL");
        assertThat(body.path("error").asText()).contains("logged out in this browser").contains("blocklist is full")
                .contains("stays valid until it expires").contains("rotating the session secret").doesNotContain(SID);
        assertCookiesCleared(response);
        assertThat(sessions.closed).isEmpty();
        assertThat(errorLines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("event=logout-revocation-failed principal=\"sam\" ").contains("maximum of 100000").doesNotContain(SID));
    }
}
