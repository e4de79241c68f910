package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.app.support.RawHttpAnswers;
import dev.omcp.testkit.time.ManualClock;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 4.3 (CSRF, CSP reports), 5.2 rules 4 and 5 (Secure, trusted proxies), 5.9 (CSP). */
class BrowserSecurityIT {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void aMutatingRequestWithoutTheEchoedCsrfToken_is403_audited_andChangesNothing() {
        gateway = TestGateway.start(Map.of(), clock);
        Browser browser = gateway.browser();
        Browser.Reply first = browser.get("/api/me");
        assertThat(first.cookie("omcp-csrf")).matches("omcp-csrf=[A-Za-z0-9_-]{43}; Path=/; SameSite=Lax");
        browser.sendCsrf = false;
        Browser.Reply refused = browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");
        browser.headers.put("X-CSRF-Token", "not-the-cookie-value-but-long-enough-000000");
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(403);
        browser.headers.clear();
        assertThat(browser.get("/api/auth/revocations").json().path("revocations")).isEmpty();
        assertThat(gateway.audit.events()).extracting(e -> e.status()).containsExactly(403, 403);
        browser.sendCsrf = true;
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(201);
    }

    @Test
    void bearerRequestsBypassCsrf_unlessTheBypassIsTurnedOff() {
        gateway = TestGateway.start(Map.of(), clock);
        Browser script = gateway.browser();
        script.sendCsrf = false;
        script.headers.put("Authorization", "Bearer some-automation-token");
        assertThat(script.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(201);
        gateway.close();
        gateway = TestGateway.start(Map.of("OMCP_CSRF_BYPASS_BEARER", "false"), clock);
        Browser strict = gateway.browser();
        strict.sendCsrf = false;
        strict.headers.put("Authorization", "Bearer some-automation-token");
        assertThat(strict.post("/api/auth/revocations", "{\"sid\": \"s1\"}").json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");
    }

    @Test
    void aCsrfTokenOfAnotherSession_isRefused_evenWhenPlantedAsTheCookieToo_andChangesNothing() {
        // A sibling subdomain can plant a cookie for this host, so a cookie that matches the header proves
        // nothing; the token must be the one of the session the request runs as.
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser victim = gateway.browser();
        victim.login("alice", TestGateway.PASSWORD);
        Browser other = gateway.browser();
        other.login("alice", TestGateway.PASSWORD);
        String othersToken = other.csrfToken();
        assertThat(othersToken).isNotNull().isNotEqualTo(victim.csrfToken());
        victim.cookies.put("omcp-csrf", othersToken);

        Browser.Reply refused = victim.post("/api/auth/revocations", "{\"sid\": \"s1\"}");

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");
        assertThat(refused.json().path("error").asText()).contains("X-CSRF-Token").contains("omcp-csrf");
        victim.cookies.remove("omcp-csrf");
        assertThat(victim.get("/api/auth/revocations").json().path("revocations")).as("nothing was revoked").isEmpty();
        assertThat(gateway.audit.events()).last().satisfies(e -> assertThat(e.status()).isEqualTo(403));
        // the GET handed the session's own token back, and with it the change goes through
        assertThat(victim.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(201);
    }

    @Test
    void aCsrfTokenFromBeforeAReLogin_isRefusedAfterIt() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser browser = gateway.browser();
        browser.login("alice", TestGateway.PASSWORD);
        String before = browser.csrfToken();
        assertThat(browser.post("/api/auth/logout", null).status()).isEqualTo(204);
        Browser.Reply again = browser.login("alice", TestGateway.PASSWORD);
        assertThat(again.cookie("omcp-csrf")).as("the login answer carries the new session's token").isNotNull();
        String current = browser.csrfToken();
        assertThat(current).isNotEqualTo(before);
        browser.cookies.put("omcp-csrf", before);

        Browser.Reply refused = browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}");

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");
        browser.cookies.put("omcp-csrf", current);
        assertThat(browser.get("/api/auth/revocations").body()).as("only the logout's own revocation").doesNotContain("\"s1\"");
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(201);
    }

    @Test
    void logoutWithoutTheCsrfToken_is403_andTheSessionStaysValid() {
        // a cross-site page must not be able to sign the user out (spec 4.3 names no exemption for logout)
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser browser = gateway.browser();
        browser.login("alice", TestGateway.PASSWORD);
        String session = browser.cookies.get("omcp_session");
        browser.sendCsrf = false;

        Browser.Reply refused = browser.post("/api/auth/logout", null);

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");
        assertThat(refused.cookie("omcp_session")).as("the cookie is not cleared").isNull();
        assertThat(browser.cookies.get("omcp_session")).isEqualTo(session);
        assertThat(browser.get("/api/me").json().path("sub").asText()).as("the session still works").isEqualTo("alice");
        assertThat(gateway.audit.events()).last().satisfies(e -> assertThat(e.action()).isEqualTo("logout"))
                .satisfies(e -> assertThat(e.status()).isEqualTo(403));
        browser.sendCsrf = true;
        assertThat(browser.post("/api/auth/logout", null).status()).isEqualTo(204);
        Browser thief = gateway.browser();
        thief.cookies.put("omcp_session", session);
        assertThat(thief.get("/api/me").status()).as("the logout with the token ended the session").isEqualTo(401);
    }

    @Test
    void aBearerRequestSkipsCsrf_butIsNeverAuthenticatedByTheSessionCookieThatCameWithIt() {
        // spec 4.3: bearer requests bypass CSRF; the management API takes no bearer credential, so such a
        // request is unauthenticated even when the browser's cookie came along, and cannot ride it
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser browser = gateway.browser();
        browser.login("alice", TestGateway.PASSWORD);
        String session = browser.cookies.get("omcp_session");
        browser.sendCsrf = false;
        browser.headers.put("Authorization", "Bearer some-automation-token");

        Browser.Reply refused = browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_AUTH_REQUIRED");
        assertThat(refused.json().path("error").asText()).contains("Authorization").contains("cookie");
        assertThat(browser.get("/api/me").status()).as("reads ignore the cookie too").isEqualTo(401);
        assertThat(browser.post("/api/auth/logout", null).status()).isEqualTo(204);

        browser.headers.clear();
        browser.sendCsrf = true;
        browser.cookies.put("omcp_session", session);
        assertThat(browser.get("/api/me").json().path("sub").asText()).as("the bearer logout ended no session").isEqualTo("alice");
        assertThat(browser.get("/api/auth/revocations").json().path("revocations")).as("nothing was revoked").isEmpty();
    }

    @Test
    void overHttps_theCsrfCookieIsHostPrefixed_andLoginChangesAndLogoutWork() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_TRUST_PROXY", "127.0.0.1");
        gateway = TestGateway.start(env, clock);
        Browser browser = gateway.browser();
        browser.headers.put("X-Forwarded-Proto", "https");
        assertThat(browser.get("/api/me").cookie("__Host-omcp-csrf")).as("before login too")
                .matches("__Host-omcp-csrf=[A-Za-z0-9_-]{43}; Path=/; SameSite=Lax; Secure");

        Browser.Reply login = browser.login("alice", TestGateway.PASSWORD);

        // __Host- makes the browser refuse the cookie unless it is Secure, has Path=/ and no Domain
        assertThat(login.cookie("__Host-omcp-csrf")).matches("__Host-omcp-csrf=[A-Za-z0-9_-]{43}; Path=/; SameSite=Lax; Secure");
        assertThat(login.cookie("omcp-csrf")).isNull();
        // spec 2.6 names the session cookie omcp_session, so it keeps that name
        assertThat(login.cookie("omcp_session")).startsWith("omcp_session=").contains("; Path=/;").endsWith("; Secure")
                .doesNotContainIgnoringCase("Domain");
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(201);
        Browser.Reply logout = browser.post("/api/auth/logout", null);
        assertThat(logout.status()).isEqualTo(204);
        assertThat(logout.cookie("omcp_session")).contains("Max-Age=0").endsWith("; Secure");
        assertThat(logout.cookie("__Host-omcp-csrf")).contains("Max-Age=0").contains("Path=/").endsWith("; Secure");
        assertThat(browser.get("/api/me").status()).isEqualTo(401);
    }

    @Test
    void overHttps_aCsrfCookieWithoutTheHostPrefix_isIgnored_soASiblingSiteCannotPlantOne() {
        gateway = TestGateway.start(Map.of("OMCP_TRUST_PROXY", "127.0.0.1"), clock);
        Browser browser = gateway.browser();
        browser.headers.put("X-Forwarded-Proto", "https");
        browser.sendCsrf = false;
        String planted = "planted-by-a-sibling-subdomain-0123456789ab";
        browser.cookies.put("omcp-csrf", planted);
        browser.headers.put("X-CSRF-Token", planted);

        Browser.Reply refused = browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}");

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_CSRF_MISMATCH");
        assertThat(refused.json().path("error").asText()).contains("__Host-omcp-csrf");
        browser.headers.remove("X-CSRF-Token");
        browser.sendCsrf = true;
        assertThat(browser.get("/api/auth/revocations").json().path("revocations")).isEmpty();
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"s1\"}").status()).isEqualTo(201);
    }

    @Test
    void everyMutatingRouteTheGatewayLists_refusesARequestWithoutTheCsrfToken_butTheDocumentedExemptions() {
        // spec 5 (section on CSRF): every mutating management call; a route marked exempt by mistake fails here
        gateway = TestGateway.start(Map.of(), clock);
        Browser browser = gateway.browser();
        com.fasterxml.jackson.databind.JsonNode paths = browser.get("/api/openapi.json").json().path("paths");
        assertThat(paths.size()).as("routes listed by /api/openapi.json").isGreaterThan(10);
        browser.sendCsrf = false;
        java.util.List<String> checked = new java.util.ArrayList<>();
        java.util.List<String> exempt = new java.util.ArrayList<>();
        paths.properties().forEach(path -> path.getValue().properties().forEach(operation -> {
            String method = operation.getKey().toUpperCase(java.util.Locale.ROOT);
            if (!java.util.Set.of("POST", "PUT", "PATCH", "DELETE").contains(method)) {
                return;
            }
            String route = method + " " + path.getKey();
            Browser.Reply reply = browser.send(method, path.getKey().replaceAll("\\{[^}]+}", "x"), "{}");
            if (reply.status() == 403 && reply.body().contains("\"OMCP_CSRF_MISMATCH\"")) {
                checked.add(route);
            } else {
                exempt.add(route);
            }
        }));
        assertThat(exempt).as("mutating routes that took a request without the CSRF token")
                .containsExactlyInAnyOrder("POST /api/auth/login", "POST /api/csp-violations");
        assertThat(checked).as("mutating routes that refused it").contains("POST /api/auth/revocations", "POST /api/auth/logout")
                .hasSizeGreaterThan(5);
    }

    @Test
    void everyResponseCarriesTheEnforcedCsp_andTheHardeningHeaders() {
        gateway = TestGateway.start(Map.of(), clock);
        for (String path : new String[] {"/api/info", "/healthz", "/api/nowhere"}) {
            Browser.Reply reply = gateway.browser().get(path);
            assertThat(reply.header("Content-Security-Policy")).as(path).contains("frame-ancestors 'none'").contains("'unsafe-inline'");
            assertThat(reply.header("Content-Security-Policy-Report-Only")).isNull();
            assertThat(reply.header("X-Frame-Options")).isEqualTo("DENY");
            assertThat(reply.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(reply.header("Referrer-Policy")).isEqualTo("no-referrer");
        }
    }

    @Test
    void refusalsBeforeAnyRoute_carryTheHardeningHeadersToo() {
        // a Host or Origin refusal quotes what the request sent, and Jetty's own 400 comes before routing:
        // spec 5.9 and this module's docs say every response carries the policy, these included
        gateway = TestGateway.start(Map.of("OMCP_CSP_STRICT_REPORT", "true"), clock);
        Browser page = gateway.browser();
        page.headers.put("Origin", "http://evil.example");
        Browser.Reply origin = page.get("/api/me");
        assertThat(origin.json().path("code").asText()).isEqualTo("OMCP_ORIGIN_REJECTED");
        assertHardened("Origin refusal", origin.raw().headers().map());
        assertThat(origin.header("Content-Security-Policy-Report-Only")).contains("script-src 'self';");
        String host = Browser.raw(gateway.port(), "GET /api/me HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
        assertThat(host).startsWith("HTTP/1.1 403").contains("OMCP_HOST_REJECTED");
        assertHardened("Host refusal", RawHttpHead.headers(host));
        String malformed = Browser.raw(gateway.port(), "GET /api/%ZZ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertThat(malformed).startsWith("HTTP/1.1 400").contains("OMCP_MALFORMED_REQUEST");
        assertHardened("Jetty's 400", RawHttpHead.headers(malformed));
    }

    private static void assertHardened(String what, Map<String, java.util.List<String>> headers) {
        java.util.Map<String, String> lower = new java.util.HashMap<>();
        headers.forEach((name, values) -> lower.put(name.toLowerCase(java.util.Locale.ROOT), String.join(",", values)));
        assertThat(lower.get("content-security-policy")).as(what).contains("frame-ancestors 'none'");
        assertThat(lower.get("x-frame-options")).as(what).isEqualTo("DENY");
        assertThat(lower.get("x-content-type-options")).as(what).isEqualTo("nosniff");
        assertThat(lower.get("referrer-policy")).as(what).isEqualTo("no-referrer");
    }

    @Test
    void managementAnswers_areNeverStoredByACache_soOneUsersDataCannotBeServedToAnother() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser browser = gateway.browser();
        assertThat(browser.get("/api/audit").header("Cache-Control")).as("401").isEqualTo("no-store");
        browser.login("alice", TestGateway.PASSWORD);
        for (String path : new String[] {"/api/me", "/api/audit", "/api/auth/revocations", "/api/nowhere"}) {
            assertThat(browser.get(path).header("Cache-Control")).as(path).isEqualTo("no-store");
        }
    }

    @Test
    void aSameOriginPage_isAccepted_whenTheHostHeaderSpellsOutTheDefaultPort() {
        // a proxy that writes Host as name:port (nginx "$host:$server_port") while the browser's Origin
        // leaves the scheme's default port out: the same origin, not a foreign page
        gateway = TestGateway.start(Map.of(), clock);
        String answer = Browser.raw(gateway.port(), "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:80\r\nOrigin: http://127.0.0.1\r\n"
                + "Connection: close\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 200");
        String other = Browser.raw(gateway.port(), "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:80\r\nOrigin: https://127.0.0.1\r\n"
                + "Connection: close\r\n\r\n");
        assertThat(other).as("https's default port is 443, not 80").startsWith("HTTP/1.1 403").contains("OMCP_ORIGIN_REJECTED");
    }

    @Test
    void withStrictReport_theStrictPolicyIsReportedOnly_toTheViolationSink() {
        gateway = TestGateway.start(Map.of("OMCP_CSP_STRICT_REPORT", "true"), clock);
        Browser.Reply reply = gateway.browser().get("/api/info");
        assertThat(reply.header("Content-Security-Policy-Report-Only")).contains("script-src 'self';")
                .contains("report-uri /api/csp-violations");
        assertThat(reply.header("Content-Security-Policy")).contains("'unsafe-inline'");
    }

    @Test
    void cspReportsAreAcceptedWithoutSessionOrToken_bounded_andNotAudited() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser browser = gateway.browser();
        browser.sendCsrf = false;
        String report = "{\"csp-report\": {\"document-uri\": \"http://127.0.0.1/ui?token=x\", \"violated-directive\": \"script-src\","
                + " \"blocked-uri\": \"inline\"}}";
        assertThat(browser.post("/api/csp-violations", report).status()).isEqualTo(204);
        assertThat(browser.post("/api/csp-violations", "[{\"type\": \"csp-violation\", \"body\": {\"documentURL\": \"http://a/\"}}]").status())
                .isEqualTo(204);
        assertThat(browser.post("/api/csp-violations", "{\"x\": \"" + "a".repeat(17_000) + "\"}").status()).isEqualTo(413);
        assertThat(browser.post("/api/csp-violations", "not json").status()).isEqualTo(400);
        for (int i = 0; i < 30; i++) {
            assertThat(browser.post("/api/csp-violations", report).status()).isEqualTo(204);
        }
        assertThat(gateway.audit.events()).isEmpty();
    }

    @Test
    void anOversizedCspReport_isReadToItsEndBeforeThe413_soTheBrowserSeesTheAnswerNotAReset() throws Exception {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        byte[] body = ("{\"x\": \"" + "a".repeat(17_000) + "\"}").getBytes(StandardCharsets.US_ASCII);
        String head = "POST /api/csp-violations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), gateway.port())) {
            // Answering before the rest arrived and closing with it unread is what made clients see a reset instead of the 413.
            assertThat(RawHttpAnswers.answerToASlowBody(socket, head, body)).startsWith("HTTP/1.1 413").contains("OMCP_BODY_TOO_LARGE")
                    .doesNotContainIgnoringCase("connection: close");
            assertThat(RawHttpAnswers.healthzOnTheSameConnection(socket)).as("the connection stays usable").startsWith("HTTP/1.1 ");
        }
    }

    @Test
    void theSessionCookieIsSecure_onlyWhenATrustedProxyReportsHttps() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        gateway = TestGateway.start(env, clock);
        Browser untrusted = gateway.browser();
        untrusted.headers.put("X-Forwarded-Proto", "https");
        assertThat(untrusted.login("alice", TestGateway.PASSWORD).cookie("omcp_session")).doesNotContain("Secure");
        gateway.close();
        env.put("OMCP_TRUST_PROXY", "127.0.0.1");
        gateway = TestGateway.start(env, clock);
        Browser proxied = gateway.browser();
        proxied.headers.put("X-Forwarded-Proto", "https");
        proxied.headers.put("X-Forwarded-For", "198.51.100.23");
        Browser.Reply reply = proxied.login("alice", TestGateway.PASSWORD);
        assertThat(reply.cookie("omcp_session")).endsWith("; Secure");
        assertThat(reply.cookie("__Host-omcp-csrf")).endsWith("; Secure");
        assertThat(gateway.audit.events()).last().satisfies(e -> assertThat(e.ip()).isEqualTo("198.51.100.23"));
        assertThat(proxied.get("/api/info").json().path("governance").path("trustProxy").asBoolean()).isTrue();
    }

    @Test
    void everyXForwardedProtoLine_isRead_theTrustedProxysValueDecidesSecure() {
        // A proxy that adds its own line after the one the client sent: only the client's first line was read.
        gateway = TestGateway.start(Map.of("OMCP_TRUST_PROXY", "127.0.0.1"), clock);
        String added = Browser.raw(gateway.port(), "GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: http\r\n"
                + "X-Forwarded-Proto: https\r\nConnection: close\r\n\r\n");
        assertThat(RawHttpHead.headers(added).get("Set-Cookie")).as("the proxy said https").singleElement(
                org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("__Host-omcp-csrf=").endsWith("; Secure");
        // a client claiming https to a proxy that appends the plain http it came over: the first entry was read
        String forged = Browser.raw(gateway.port(), "GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "X-Forwarded-Proto: https, http\r\nConnection: close\r\n\r\n");
        assertThat(RawHttpHead.headers(forged).get("Set-Cookie")).as("the proxy said http").singleElement(
                org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("omcp-csrf=").doesNotContain("Secure");
    }

    @Test
    void anInvalidTrustProxyValueIsASettingsError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TestGateway.start(Map.of("OMCP_TRUST_PROXY", "my-proxy.local"), clock))
                .hasMessageContaining("OMCP_TRUST_PROXY");
    }
}
