package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.testkit.time.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The management API as a hostile client sees it: requests that are malformed, ambiguous or sent
 * with a method, a role or from a site they should not be, on a whole gateway in basic mode.
 */
class HostileRequestsIT {
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final ObjectMapper MAPPER = new ObjectMapper();

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
    void everyMutatingRouteTheGatewayServes_refusesACallerWithoutItsPermission_withTheBodyOfSpec71() {
        // spec 5.5: every mutating /api route checks a (resource, action) permission; a route added
        // later without one, or served past ApiRoutes, fails here
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser viewer = ManagementUsers.login(gateway, "victor");
        List<String> held = new ArrayList<>();
        viewer.get("/api/me").json().path("permissions").forEach(p -> held.add(p.asText()));
        assertThat(held).as("the builtin viewer reads only").allMatch(p -> p.endsWith(":read"));

        List<ApiRoutes.Route> documented = gateway.assembly().server().documentedRoutes();
        List<String> refused = new ArrayList<>();
        List<String> publicRoutes = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String served : gateway.assembly().server().servedRoutes()) {
            String method = served.substring(0, served.indexOf(' '));
            String path = served.substring(served.indexOf(' ') + 1);
            if (!MUTATING.contains(method) || !path.startsWith("/api/")) {
                continue;
            }
            Optional<ApiRoutes.Route> route = documented.stream()
                    .filter(r -> r.method().equals(method) && r.path().equals(path)).findFirst();
            if (route.isEmpty()) {
                problems.add(served + ": served but not registered through ApiRoutes, so no permission is checked");
                continue;
            }
            if (route.get().publicRoute()) {
                publicRoutes.add(served);
                continue;
            }
            Browser.Reply reply = viewer.send(method, path.replaceAll("\\{[^}]+}|<[^>]+>", "x"), "{}");
            JsonNode body = reply.status() == 403 ? reply.json() : MAPPER.createObjectNode();
            if (reply.status() != 403 || !body.path("code").asText().equals("OMCP_PERMISSION_DENIED")) {
                problems.add(served + ": " + reply.status() + " " + reply.body());
                continue;
            }
            JsonNode required = body.path("required");
            List<String> have = new ArrayList<>();
            body.path("have").forEach(p -> have.add(p.asText()));
            if (!required.path("resource").asText().equals(route.get().permission().resource())
                    || !required.path("action").asText().equals(route.get().permission().action())
                    || !body.path("have").isArray() || !have.equals(held) || body.path("error").asText().isBlank()) {
                problems.add(served + ": not the body of spec 7.1 naming " + route.get().permission() + ": " + reply.body());
                continue;
            }
            refused.add(served);
        }
        assertThat(problems).isEmpty();
        assertThat(publicRoutes).as("mutating routes that answer without a session (spec 4.2)")
                .containsExactlyInAnyOrder("POST /api/auth/login", "POST /api/auth/logout", "POST /api/csp-violations");
        assertThat(refused).contains("POST /api/sources", "DELETE /api/postmortems/{id}", "PUT /api/settings",
                "POST /api/auth/revocations", "POST /api/connectors/upload").hasSizeGreaterThan(10);
    }

    @Test
    void head_answersWhatGetAnswers_withoutTheBody() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser nobody = gateway.browser();
        Browser.Reply anonymous = nobody.send("HEAD", "/api/audit", null);
        assertThat(anonymous.status()).as("GET without a session is 401, so is HEAD").isEqualTo(401);
        assertThat(anonymous.body()).isEmpty();

        Browser viewer = ManagementUsers.login(gateway, "victor");
        assertThat(viewer.send("HEAD", "/api/policy", null).status()).as("GET is 403 for a viewer").isEqualTo(403);
        assertThat(viewer.send("HEAD", "/api/postmortems/pm-none", null).status()).as("GET is 404").isEqualTo(404);
        assertThat(viewer.send("HEAD", "/api/postmortems/not.an.id", null).status()).as("GET is 400").isEqualTo(400);
        Browser.Reply found = viewer.send("HEAD", "/api/postmortems", null);
        assertThat(found.status()).isEqualTo(200);
        assertThat(found.body()).isEmpty();
        assertThat(found.header("Content-Type")).startsWith("application/json");
        assertThat(viewer.send("HEAD", "/api/nowhere", null).status()).isEqualTo(404);
        assertThat(gateway.audit.events()).as("a HEAD changes nothing and is not audited: only the login is")
                .allSatisfy(e -> assertThat(e.action()).isEqualTo("login"));
    }

    @Test
    void aPathJettyCannotRead_orAnOverlongRequest_isRefusedAsJsonWithACode_notAnHtmlPage() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        String host = "Host: 127.0.0.1:" + gateway.port() + "\r\nConnection: close\r\n";
        Map<String, String> expected = Map.of(
                "GET /api/sources/%ZZ HTTP/1.1\r\n" + host + "\r\n", "400 OMCP_MALFORMED_REQUEST",
                "DELETE /api/sources/a%00b HTTP/1.1\r\n" + host + "\r\n", "400 OMCP_MALFORMED_REQUEST",
                "GET /api/postmortems/" + "a".repeat(10_000) + " HTTP/1.1\r\n" + host + "\r\n", "414 OMCP_URI_TOO_LONG",
                "GET /api/sources HTTP/1.1\r\n" + host + "X-Filler: " + "b".repeat(10_000) + "\r\n\r\n", "431 OMCP_HEADERS_TOO_LARGE");
        expected.forEach((request, answer) -> {
            String raw = Browser.raw(gateway.port(), request);
            String status = answer.substring(0, 3);
            String code = answer.substring(4);
            assertThat(raw).as(request.substring(0, 40)).startsWith("HTTP/1.1 " + status);
            assertThat(raw.toLowerCase(Locale.ROOT)).contains("content-type: application/json").doesNotContain("<html");
            assertThat(raw).contains("\"code\":\"" + code + "\"").doesNotContain("aaaaaaaaaa").doesNotContain("bbbbbbbbbb")
                    .doesNotContain("Exception").doesNotContain("org.eclipse");
        });
    }

    @Test
    void aQueryParameterGivenTwice_orOneTheRouteDoesNotTake_is400_neverTheFirstOrLastWinning() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser viewer = ManagementUsers.login(gateway, "victor");
        for (String path : List.of("/api/postmortems?limit=5&limit=100", "/api/health/anomaly-sparklines?bucket=1m&bucket=15m",
                "/api/postmortems?limit=5&colour=red")) {
            Browser.Reply reply = viewer.get(path);
            assertThat(reply.status()).as(path + " -> " + reply.body()).isEqualTo(400);
            assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
        }
        assertThat(viewer.get("/api/postmortems?limit=5").status()).isEqualTo(200);
        assertThat(viewer.get("/api/postmortems?limit=5&limit=100").json().path("error").asText()).contains("limit: given 2 times; give it once");
        assertThat(viewer.get("/api/postmortems?limit=5&colour=red").json().path("error").asText()).contains("'colour'");
        assertThat(viewer.get("/api/health/anomaly-sparklines?bucket=1m").status()).isEqualTo(200);
    }

    @Test
    void loginCsrf_aPageOfAnotherSiteCannotLogTheVictimIn_butAClientWithoutAnOriginCan() {
        // The login is exempt from the CSRF token (no session exists yet); what keeps a page of another
        // site from logging a visitor into the attacker's account is that it cannot send the request:
        // a browser adds Origin to every cross-site POST (refused unless listed, "null" included), and
        // an HTML form cannot send application/json (415, whatever the password).
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        String login = "{\"username\": \"olivia\", \"password\": \"" + TestGateway.PASSWORD + "\"}";
        for (String origin : List.of("null", "http://evil.example", "http://127.0.0.1.evil.example:" + gateway.port())) {
            Browser page = gateway.browser();
            page.headers.put("Origin", origin);
            Browser.Reply refused = page.post("/api/auth/login", login);
            assertThat(refused.status()).as(origin).isEqualTo(403);
            assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_ORIGIN_REJECTED");
            assertThat(refused.setCookies()).as("no session for a page of another site").isEmpty();
            Browser.Reply preflight = page.send("OPTIONS", "/api/auth/login", null);
            assertThat(preflight.status()).as("the CORS preflight of a fetch from " + origin).isEqualTo(403);
            assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
        }
        String form = "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:" + gateway.port() + "\r\nConnection: close\r\n"
                + "Content-Type: text/plain\r\nSec-Fetch-Site: cross-site\r\nReferer: http://evil.example/\r\nContent-Length: "
                + login.length() + "\r\n\r\n" + login;
        String formAnswer = Browser.raw(gateway.port(), form);
        assertThat(formAnswer).startsWith("HTTP/1.1 415").contains("OMCP_UNSUPPORTED_MEDIA_TYPE").doesNotContain("omcp_session=");

        Browser curl = gateway.browser();
        assertThat(curl.post("/api/auth/login", login).status()).as("no Origin: not a browser page").isEqualTo(200);
        Browser sameOrigin = gateway.browser();
        sameOrigin.headers.put("Origin", gateway.base());
        assertThat(sameOrigin.post("/api/auth/login", login).status()).as("the gateway's own page").isEqualTo(200);
    }
}
