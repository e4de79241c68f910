package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 5.1 (basic mode), 5.2, 4.2 and DECISIONS.md "Management plane": login, session cookie, /api/me, logout. */
class BasicLoginIT {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private TestGateway gateway;

    @BeforeEach
    void start() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void login_answersOkWithTheUser_andSetsTheSignedSessionCookieWithTheSpecAttributes() {
        Browser browser = gateway.browser();
        Browser.Reply reply = browser.login("alice", TestGateway.PASSWORD);
        assertThat(reply.status()).isEqualTo(200);
        JsonNode body = reply.json();
        assertThat(body.path("ok").asBoolean()).isTrue();
        assertThat(body.path("user").path("sub").asText()).isEqualTo("alice");
        assertThat(body.path("user").path("name").asText()).isEqualTo("Alice Admin");
        assertThat(body.path("user").path("roles").toString()).isEqualTo("[\"admin\"]");
        // spec 5.2 rule 4: HttpOnly, SameSite=Lax, no Secure over plain HTTP, 12 h
        assertThat(reply.cookie("omcp_session")).matches("omcp_session=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax");
        assertThat(reply.cookie("omcp-csrf")).doesNotContain("HttpOnly");
    }

    @Test
    void me_returnsSubNameSidRolesTenantAndPermissions() {
        Browser browser = gateway.browser();
        browser.login("victor", TestGateway.PASSWORD);
        JsonNode me = browser.get("/api/me").json();
        assertThat(me.path("sub").asText()).isEqualTo("victor");
        assertThat(me.path("name").asText()).isEqualTo("Victor View");
        assertThat(me.path("sid").asText()).hasSizeGreaterThan(20);
        assertThat(me.path("tenant").asText()).isEqualTo("acme");
        assertThat(me.path("roles").toString()).isEqualTo("[\"viewer\"]");
        assertThat(me.path("permissions").toString()).contains("\"audit:read\"", "\"sources:read\"").doesNotContain("sources:write");
    }

    @Test
    void wrongPasswordAndUnknownUser_answer401InvalidCredentials_withACode() {
        Browser browser = gateway.browser();
        for (String[] attempt : new String[][] {{"alice", "wrong"}, {"nobody", "wrong"}}) {
            Browser.Reply reply = browser.login(attempt[0], attempt[1]);
            assertThat(reply.status()).isEqualTo(401);
            assertThat(reply.json().path("error").asText()).isEqualTo("invalid credentials");
            assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_INVALID_CREDENTIALS");
            assertThat(reply.cookie("omcp_session")).isNull();
        }
    }

    @Test
    void malformedLoginBodiesAre400_andCountNothing() {
        Browser browser = gateway.browser();
        // JSON that cannot be read has the management API's code; fields of the wrong kind the login's own
        Map<String, String> expected = Map.of(
                "", "OMCP_INVALID_BODY",
                "[]", "OMCP_INVALID_BODY",
                "not json", "OMCP_INVALID_BODY",
                "{\"username\": 1, \"password\": \"x\"}", "OMCP_BAD_REQUEST",
                "{\"username\": \"alice\"}", "OMCP_BAD_REQUEST",
                "{\"username\": \"" + "a".repeat(300) + "\", \"password\": \"x\"}", "OMCP_BAD_REQUEST");
        expected.forEach((body, code) -> {
            Browser.Reply reply = browser.post("/api/auth/login", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.json().path("code").asText()).as(body).isEqualTo(code);
        });
        assertThat(browser.login("alice", TestGateway.PASSWORD).status()).isEqualTo(200);
    }

    @Test
    void loginBodiesFollowTheManagementApiRules_evenWithTheRightPassword_andOpenNoSession() throws Exception {
        String right = TestGateway.PASSWORD;
        Browser browser = gateway.browser();

        HttpResponse<String> plain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.base() + "/api/auth/login"))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\": \"alice\", \"password\": \"" + right + "\"}"))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(415);
        assertThat(plain.body()).contains("\"code\":\"OMCP_UNSUPPORTED_MEDIA_TYPE\"").doesNotContain(right);
        assertThat(plain.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("omcp_session="));

        Browser.Reply lastWins = browser.post("/api/auth/login",
                "{\"username\": \"alice\", \"password\": \"x\", \"password\": \"" + right + "\"}");
        assertThat(lastWins.status()).isEqualTo(400);
        assertThat(lastWins.json().path("code").asText()).isEqualTo("OMCP_INVALID_BODY");
        assertThat(lastWins.body()).doesNotContain(right);
        assertThat(lastWins.cookie("omcp_session")).isNull();

        Browser.Reply extra = browser.post("/api/auth/login",
                "{\"username\": \"alice\", \"password\": \"" + right + "\", \"remember\": true}");
        assertThat(extra.status()).isEqualTo(400);
        assertThat(extra.json().path("code").asText()).isEqualTo("OMCP_INVALID_BODY");
        assertThat(extra.json().path("error").asText()).contains("'remember'");
        assertThat(extra.body()).doesNotContain(right);
        assertThat(extra.cookie("omcp_session")).isNull();

        assertThat(browser.get("/api/me").status()).as("no session was opened").isEqualTo(401);
        // refused logins are audited like any other, and without the password
        assertThat(gateway.audit.events()).extracting(AuditEvent::action, AuditEvent::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("login", 415), org.assertj.core.groups.Tuple.tuple("login", 400),
                        org.assertj.core.groups.Tuple.tuple("login", 400));
        assertThat(gateway.audit.events().toString()).doesNotContain(right);
    }

    @Test
    void withoutASession_everyApiRouteAnswers401WithCodeErrorAndMode_exceptThePublicOnes() {
        // spec 5.1, 7.4 row 1, DECISIONS.md: {code: OMCP_AUTH_REQUIRED, error, mode}
        Browser browser = gateway.browser();
        for (String path : List.of("/api/policy", "/api/auth/revocations")) {
            Browser.Reply reply = browser.get(path);
            assertThat(reply.status()).as(path).isEqualTo(401);
            assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_AUTH_REQUIRED");
            assertThat(reply.json().path("mode").asText()).isEqualTo("basic");
            assertThat(reply.json().path("error").asText()).contains("POST /api/auth/login");
        }
        Browser.Reply me = browser.get("/api/me");
        assertThat(me.status()).isEqualTo(401);
        assertThat(me.json().path("mode").asText()).isEqualTo("basic");
        // what a script or a UI reads first: it says how to log in, as every other route's 401 does
        assertThat(me.json().path("error").asText()).isEqualTo("no valid session: log in with POST /api/auth/login");
        for (String path : List.of("/api/info", "/api/openapi.json", "/api/conformance", "/healthz", "/readyz", "/metrics")) {
            assertThat(browser.get(path).status()).as(path).isEqualTo(200);
        }
        assertThat(browser.post("/api/auth/logout", null).status()).isEqualTo(204);
    }

    @Test
    void aForgedOrGarbledCookieIsNoSession() {
        Browser browser = gateway.browser();
        browser.login("alice", TestGateway.PASSWORD);
        String value = browser.cookies.get("omcp_session");
        browser.cookies.put("omcp_session", value.substring(0, value.length() - 2) + "xx");
        assertThat(browser.get("/api/policy").status()).isEqualTo(401);
        browser.cookies.put("omcp_session", "garbage");
        assertThat(browser.get("/api/policy").status()).isEqualTo(401);
    }

    @Test
    void logout_answers204_clearsTheCookie_andRevokesTheSessionSoACopyStopsWorking() {
        Browser browser = gateway.browser();
        browser.login("alice", TestGateway.PASSWORD);
        String copied = browser.cookies.get("omcp_session");
        Browser.Reply reply = browser.post("/api/auth/logout", null);
        assertThat(reply.status()).isEqualTo(204);
        assertThat(reply.cookie("omcp_session")).isEqualTo("omcp_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
        Browser thief = gateway.browser();
        thief.cookies.put("omcp_session", copied);
        assertThat(thief.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void loginAndLogoutAreAudited_withTheUsernameAsActor() {
        Browser browser = gateway.browser();
        browser.login("alice", "wrong");
        browser.login("alice", TestGateway.PASSWORD);
        browser.post("/api/auth/logout", null);
        List<AuditEvent> events = gateway.audit.events();
        assertThat(events).extracting(AuditEvent::actor, AuditEvent::resource, AuditEvent::action, AuditEvent::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("alice", "auth", "login", 401),
                        org.assertj.core.groups.Tuple.tuple("alice", "auth", "login", 200),
                        org.assertj.core.groups.Tuple.tuple("alice", "auth", "logout", 204));
        assertThat(events.get(0).ip()).isEqualTo("127.0.0.1");
        assertThat(events.get(0).method()).isEqualTo("POST");
        assertThat(events.get(0).path()).isEqualTo("/api/auth/login");
    }

    @Test
    void aFailedLoginForAKnownUser_recordsTheUsername() {
        Browser browser = gateway.browser();
        assertThat(browser.login("victor", "wrong").status()).isEqualTo(401);
        assertThat(gateway.audit.events()).extracting(AuditEvent::actor, AuditEvent::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("victor", 401));
    }

    @Test
    void aPasswordTypedIntoTheUsernameField_neverReachesTheAuditLog() {
        String typedPassword = "Correct-Horse-Battery-9";
        Browser browser = gateway.browser();
        assertThat(browser.login(typedPassword, "alice").status()).isEqualTo(401);
        List<AuditEvent> events = gateway.audit.events();
        assertThat(events).extracting(AuditEvent::actor, AuditEvent::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("unknown-user", 401));
        assertThat(events.toString()).doesNotContain(typedPassword);
    }

    @Test
    void theUsersFileIsReReadOnLoginWhenItChanges() throws Exception {
        Path users = dir.resolve("users.json");
        String content = java.nio.file.Files.readString(users).replace("\"victor\"", "\"vera\"");
        java.nio.file.Files.writeString(users, content);
        java.nio.file.Files.setLastModifiedTime(users, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(5)));
        Browser browser = gateway.browser();
        assertThat(browser.login("vera", TestGateway.PASSWORD).status()).isEqualTo(200);
        assertThat(browser.login("victor", TestGateway.PASSWORD).status()).isEqualTo(401);
    }

    @Test
    void governanceBlockReportsBasicModeAndAConfiguredSecret() {
        JsonNode governance = gateway.browser().get("/api/info").json().path("governance");
        assertThat(governance.path("authMode").asText()).isEqualTo("basic");
        assertThat(governance.path("authSecretEphemeral").asBoolean()).isFalse();
        assertThat(governance.path("trustProxy").asBoolean()).isFalse();
    }

    @Test
    void withoutASecret_sessionsUseAnEphemeralOne_andInfoSaysSo() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.remove("OMCP_SESSION_SECRET");
        try (TestGateway ephemeral = TestGateway.start(env, clock)) {
            assertThat(ephemeral.browser().get("/api/info").json().path("governance").path("authSecretEphemeral").asBoolean()).isTrue();
            Browser browser = ephemeral.browser();
            assertThat(browser.login("alice", TestGateway.PASSWORD).status()).isEqualTo(200);
            assertThat(browser.get("/api/policy").status()).isEqualTo(200);
        }
    }
}
