package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the management API makes of values a client should not send: a field given as {@code null},
 * a source name in the path that no source can have, and what the session blocklist shows, on a
 * whole gateway in basic mode with a sources file.
 */
class ManagementInputsIT {
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

    private void start() throws IOException {
        Path sources = dir.resolve("sources.yaml");
        Files.writeString(sources, """
                sources:
                  - name: shared-prometheus
                    type: prometheus
                    url: http://127.0.0.1:1
                """);
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", sources.toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        gateway = TestGateway.start(env, clock);
        var tools = gateway.assembly().gateway().tools();
        tools.register(StandInTools.topology());
        tools.register(StandInTools.serviceHealth());
    }

    @Test
    void aFieldGivenAsNull_isRefusedOnEveryRouteThatReadsAJsonBody_namingIt_andNothingChanges() throws IOException {
        // docs/management-api.md, Bodies: a field is given a value or left out; null is refused with
        // the route's code for its fields, never read as "left out", "default" or "clear"
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String sourcesBefore = alice.get("/api/sources").body();
        String thresholdsBefore = alice.get("/api/health/thresholds").body();
        String[][] cases = {
                // method, path, body, code, the field named
                {"PUT", "/api/sources/shared-prometheus", "{\"name\": \"shared-prometheus\", \"type\": \"prometheus\", \"url\": null}",
                        "OMCP_SOURCE_INVALID", "url"},
                {"PUT", "/api/sources/shared-prometheus", "{\"name\": null, \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:2\"}",
                        "OMCP_SOURCE_INVALID", "name"},
                {"POST", "/api/sources", "{\"name\": \"edge\", \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:1\", "
                        + "\"tenant\": null, \"enabled\": null}", "OMCP_SOURCE_INVALID", "tenant"},
                {"POST", "/api/sources/test", "{\"name\": \"edge\", \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:1\", "
                        + "\"settings\": null}", "OMCP_SOURCE_INVALID", "settings"},
                {"POST", "/api/auth/revocations", "{\"sub\": \"victor\", \"reason\": null}", "OMCP_BAD_REQUEST", "reason"},
                {"POST", "/api/auth/revocations", "{\"sid\": null, \"sub\": \"victor\"}", "OMCP_BAD_REQUEST", "sid"},
                {"PUT", "/api/health/thresholds", "{\"cpu\": null}", "OMCP_INVALID_THRESHOLDS", "cpu"},
                {"PUT", "/api/settings", "{\"healthThresholds\": null}", "OMCP_INVALID_SETTINGS", "healthThresholds"},
                {"POST", "/api/postmortems", "{\"service\": \"checkout\", \"duration\": null}", "OMCP_INVALID_BODY", "duration"},
                {"POST", "/api/playground/invoke", "{\"tool\": \"get_topology\", \"arguments\": null}", "OMCP_INVALID_BODY", "arguments"},
        };
        List<String> problems = new ArrayList<>();
        for (String[] c : cases) {
            Browser.Reply reply = alice.send(c[0], c[1], c[2]);
            JsonNode body = reply.status() == 400 ? reply.json() : null;
            if (body == null || !body.path("code").asText().equals(c[3])
                    || !body.path("error").asText().contains(c[4] + ": null is not accepted")
                    || !body.path("errors").toString().contains(c[4] + ": null is not accepted")) {
                problems.add(c[0] + " " + c[1] + " " + c[2] + " -> " + reply.status() + " " + reply.body());
            }
        }
        assertThat(problems).isEmpty();
        Browser.Reply login = gateway.browser().post("/api/auth/login", "{\"username\": null, \"password\": \"x\"}");
        assertThat(login.status()).isEqualTo(400);
        assertThat(login.json().path("code").asText()).isEqualTo("OMCP_BAD_REQUEST");
        assertThat(login.json().path("error").asText()).contains("username: null is not accepted");

        assertThat(alice.get("/api/sources").body()).as("no source changed or added").isEqualTo(sourcesBefore);
        assertThat(alice.get("/api/health/thresholds").body()).isEqualTo(thresholdsBefore);
        assertThat(alice.get("/api/auth/revocations").json().path("revocations")).as("nothing revoked").isEmpty();
        assertThat(alice.get("/api/postmortems").json().path("postmortems")).isEmpty();
    }

    @Test
    void aSourceNameInThePathThatNoSourceCanHave_is400WithoutItsRawValue_andAValidUnknownNameIs404() throws IOException {
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String huge = "x".repeat(4000);
        for (String name : List.of(huge, "evil%01%1B%5B31mname", "Shared-Prometheus", "-leading")) {
            for (String method : List.of("DELETE", "PUT")) {
                Browser.Reply reply = alice.send(method, "/api/sources/" + name,
                        method.equals("PUT") ? "{\"name\": \"shared-prometheus\", \"type\": \"prometheus\"}" : null);
                assertThat(reply.status()).as(method + " " + name.substring(0, Math.min(30, name.length())) + ": " + reply.body())
                        .isEqualTo(400);
                assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
                assertThat(reply.json().path("error").asText()).contains("is not a source name (1-63 lower-case letters");
                assertThat(reply.body()).hasSizeLessThan(1000).doesNotContain("\\u0001").doesNotContain("\\u001b")
                        .doesNotContain("\u0001").doesNotContain("x".repeat(100));
            }
        }
        assertThat(gateway.audit.events()).as("the audit entries hold the name bounded, without control characters")
                .filteredOn(e -> e.resource().equals("sources"))
                .hasSize(8)
                .allSatisfy(e -> assertThat(e.target()).hasSizeLessThanOrEqualTo(67).doesNotContain("\u0001"));

        Browser.Reply unknown = alice.send("DELETE", "/api/sources/no-such-source", null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().path("code").asText()).isEqualTo("OMCP_SOURCE_NOT_FOUND");
        assertThat(alice.get("/api/sources").body()).as("nothing removed").contains("shared-prometheus");

        Browser.Reply hugeBodyName = alice.post("/api/sources", "{\"name\": \"" + huge + "\", \"type\": \"prometheus\", "
                + "\"url\": \"http://127.0.0.1:1\"}");
        assertThat(hugeBodyName.status()).isEqualTo(400);
        assertThat(hugeBodyName.json().path("code").asText()).isEqualTo("OMCP_SOURCE_INVALID");
        assertThat(hugeBodyName.body()).as("a name in the body is quoted bounded too").hasSizeLessThan(1000)
                .doesNotContain("x".repeat(100));
        Browser.Reply renamed = alice.send("PUT", "/api/sources/shared-prometheus", "{\"name\": \"" + huge
                + "\", \"type\": \"prometheus\"}");
        assertThat(renamed.status()).isEqualTo(400);
        assertThat(renamed.body()).hasSizeLessThan(1000).doesNotContain("x".repeat(100));
    }

    @Test
    void aSourceTest_isAuditedWithTheNameItTested_likeAnAdd() throws IOException {
        // the test route connects to whatever URL the body names: the audit trail must say which source it was
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        Browser.Reply tested = alice.post("/api/sources/test", "{\"name\": \"probe-me\", \"type\": \"prometheus\", "
                + "\"url\": \"http://127.0.0.1:1\"}");
        assertThat(tested.status()).as(tested.body()).isEqualTo(200);

        assertThat(gateway.audit.events()).filteredOn(e -> e.path().equals("/api/sources/test"))
                .singleElement().satisfies(e -> assertThat(e.target()).isEqualTo("probe-me"));
    }

    @Test
    void theRevocationList_saysWhetherEverySessionWasVoidedAtOnce_nullForTheInMemoryStore() throws IOException {
        // docs/access-control.md, Revocation: allSessionsRevokedAt is always a member; the in-memory
        // blocklist cannot lose entries while it runs, so it never voids every session at once
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        assertThat(alice.post("/api/auth/revocations", "{\"sub\": \"victor\", \"reason\": \"left\"}").status()).isEqualTo(201);

        JsonNode list = alice.get("/api/auth/revocations").json();

        assertThat(list.has("allSessionsRevokedAt")).as(list.toString()).isTrue();
        assertThat(list.path("allSessionsRevokedAt").isNull()).isTrue();
        assertThat(list.path("revocations").findValuesAsText("sub")).containsExactly("victor");
    }

    @Test
    void aQueryParameterTheRouteDoesNotTake_is400NamingIt_andNothingIsDone() throws IOException {
        // docs/management-api.md, Parameters: a parameter the caller believes in (a trial run, a filter)
        // was dropped without a word, and the change made or everything listed
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String sourcesBefore = alice.get("/api/sources").body();
        String thresholdsBefore = alice.get("/api/health/thresholds").body();
        String[][] cases = {
                // method, path, body, the parameter named
                {"PUT", "/api/sources/shared-prometheus?dryRun=true",
                        "{\"name\": \"shared-prometheus\", \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:2\"}", "dryRun"},
                {"DELETE", "/api/sources/shared-prometheus?ifUnused=true", null, "ifUnused"},
                {"GET", "/api/sources?tenant=acme", null, "tenant"},
                {"PUT", "/api/health/thresholds?validateOnly=true", "{\"cpu\": {\"critical\": 0.99}}", "validateOnly"},
                {"PUT", "/api/settings?validateOnly=true", "{\"healthThresholds\": {\"cpu\": {\"critical\": 0.99}}}", "validateOnly"},
                {"POST", "/api/postmortems?format=markdown", "{\"service\": \"checkout\"}", "format"},
                {"POST", "/api/connectors/upload?allowdowngrade=true", null, "allowdowngrade"},
                {"GET", "/api/policy?role=admin", null, "role"},
        };
        List<String> problems = new ArrayList<>();
        for (String[] c : cases) {
            Browser.Reply reply = alice.send(c[0], c[1], c[2]);
            JsonNode body = reply.status() == 400 ? reply.json() : null;
            if (body == null || !body.path("code").asText().equals("OMCP_INVALID_PARAMETERS")
                    || !body.path("error").asText().contains("'" + c[3] + "' is not a query parameter of")
                    || !body.path("errors").toString().contains("'" + c[3] + "'")) {
                problems.add(c[0] + " " + c[1] + " -> " + reply.status() + " " + reply.body());
            }
        }
        assertThat(problems).isEmpty();
        Browser.Reply sources = alice.get("/api/sources?tenant=acme");
        assertThat(sources.json().path("reason").asText()).as("the sources routes' own shape").contains("'tenant'");
        assertThat(sources.json().path("error").asText()).contains("GET /api/sources (it takes none)");

        assertThat(alice.get("/api/sources").body()).as("the source is neither changed nor removed").isEqualTo(sourcesBefore);
        assertThat(alice.get("/api/health/thresholds").body()).isEqualTo(thresholdsBefore);
        assertThat(alice.get("/api/postmortems").json().path("postmortems")).isEmpty();
        assertThat(gateway.audit.events()).as("a refused change is audited with its 400")
                .filteredOn(e -> e.path().equals("/api/sources/shared-prometheus") && e.method().equals("PUT"))
                .singleElement().satisfies(e -> assertThat(e.status()).isEqualTo(400));

        JsonNode paths = alice.get("/api/openapi.json").json().path("paths");
        assertThat(paths.path("/api/postmortems").path("get").path("parameters").findValuesAsText("name"))
                .as("the document lists what a route takes").containsExactly("limit", "before");
        assertThat(paths.path("/api/sources/{name}").path("put").path("responses").has("400")).isTrue();
    }

    @Test
    void aPathParameterNoRouteCanUse_isAuditedPrintableAndBounded_whateverTheRoute() throws IOException {
        // docs/management-api.md, Parameters: the audit entry quotes such a value only printable and bounded
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String huge = "x".repeat(4000);
        String[][] cases = {
                // method, path, status
                {"DELETE", "/api/postmortems/" + huge, "400"},
                {"DELETE", "/api/postmortems/evil%01%1B%5B31mid", "400"},
                {"POST", "/api/postmortems/" + huge, "405"},
                {"POST", "/api/sources/evil%01%1B%5B31m" + huge, "405"},
                {"DELETE", "/api/connectors/evil%01%1B%5B31m" + huge, "403"},
        };
        for (String[] c : cases) {
            Browser.Reply reply = alice.send(c[0], c[1], null);
            String shortPath = c[1].substring(0, Math.min(40, c[1].length()));
            assertThat(reply.status()).as(c[0] + " " + shortPath + " -> " + reply.body()).isEqualTo(Integer.parseInt(c[2]));
        }
        assertThat(gateway.audit.events()).as("one entry per request, each target printable and bounded")
                .filteredOn(e -> e.path().startsWith("/api/postmortems/") || e.path().startsWith("/api/sources/evil")
                        || e.path().startsWith("/api/connectors/"))
                .hasSize(cases.length)
                .allSatisfy(e -> assertThat(e.target()).hasSizeLessThanOrEqualTo(200).doesNotContain("\u0001")
                        .doesNotContain("\u001b").doesNotContain("x".repeat(200)));
        assertThat(gateway.audit.events()).filteredOn(e -> e.method().equals("DELETE") && e.path().startsWith("/api/postmortems/"))
                .as("a post-mortem id is quoted as the answer quotes it: cut at 64 characters")
                .allSatisfy(e -> assertThat(e.target()).hasSizeLessThanOrEqualTo(67));
    }

    @Test
    void aQueryStringThatDoesNotDecode_is400NamingIt_neverDroppedWhileTheChangeIsMade() throws IOException {
        // found by ManagementApiFuzzIT: a parameter with an invalid escape was dropped without a word
        // (PUT /api/settings?dryRun%ZZ=true made the change, GET /api/audit?actor=a%ZZ answered every entry)
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String thresholdsBefore = alice.get("/api/health/thresholds").body();
        String[][] cases = {
                // method, path, body
                {"PUT", "/api/settings?dryRun%ZZ=true", "{\"healthThresholds\": {\"cpu\": {\"critical\": 0.99}}}"},
                {"PUT", "/api/health/thresholds?validateOnly=%FF", "{\"cpu\": {\"critical\": 0.99}}"},
                {"GET", "/api/audit?actor=a%ZZ", null},
                {"GET", "/api/postmortems?limit=%C0%AF", null},
                {"GET", "/api/services?filter=a%", null},
        };
        List<String> problems = new ArrayList<>();
        for (String[] c : cases) {
            RawExchange.Answer reply = RawExchange.send(gateway.port(), c[0], c[1], session(alice, c[2] != null),
                    c[2] == null ? null : c[2].getBytes(java.nio.charset.StandardCharsets.UTF_8));
            if (reply.status() != 400 || !reply.body().contains("\"OMCP_INVALID_PARAMETERS\"")
                    || !reply.body().contains("is not valid percent-encoded UTF-8")) {
                problems.add(c[0] + " " + c[1] + " -> " + reply.status() + " " + reply.body());
            }
        }
        assertThat(problems).isEmpty();
        assertThat(alice.get("/api/health/thresholds").body()).as("nothing changed").isEqualTo(thresholdsBefore);
        assertThat(alice.get("/api/audit?actor=alice&limit=1").status()).as("a valid escape still reads").isEqualTo(200);
        assertThat(alice.get("/api/audit?actor=al%69ce&limit=1").status()).isEqualTo(200);
    }

    @Test
    void theSessionRoutes_refuseAQueryParameterTheyDoNotTake_likeEveryOtherRoute() throws IOException {
        // found by ManagementApiFuzzIT: POST /api/auth/revocations?dryRun=true revoked the subject
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        Browser.Reply revoke = alice.post("/api/auth/revocations?dryRun=true", "{\"sub\": \"victor\"}");
        assertThat(revoke.status()).as(revoke.body()).isEqualTo(400);
        assertThat(revoke.json().path("error").asText()).contains("'dryRun' is not a query parameter of POST /api/auth/revocations");
        assertThat(alice.get("/api/auth/revocations?sub=victor").status()).isEqualTo(400);
        assertThat(alice.get("/api/auth/revocations").json().path("revocations")).as("nothing revoked").isEmpty();
        Browser.Reply login = gateway.browser().post("/api/auth/login?remember=true", "{\"username\": \"alice\", \"password\": \""
                + TestGateway.PASSWORD + "\"}");
        assertThat(login.status()).isEqualTo(400);
        assertThat(login.setCookies()).as("no session").noneMatch(c -> c.startsWith("omcp_session="));
    }

    @Test
    void aCharsetParameterWithoutAValue_is415_notA500_andNotReadAsUtf8() throws IOException {
        // found by ManagementApiFuzzIT: "application/json; charset" failed with a 500 inside Javalin's
        // query parsing on every route that takes parameters, and was read as UTF-8 on the others
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String[][] cases = {
                {"POST", "/api/sources", "{\"name\": \"edge\", \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:1\"}"},
                {"PUT", "/api/health/thresholds", "{\"cpu\": {\"critical\": 0.99}}"},
                {"POST", "/api/auth/revocations", "{\"sub\": \"victor\"}"},
                {"POST", "/api/postmortems", "{\"service\": \"checkout\"}"},
        };
        List<String> problems = new ArrayList<>();
        for (String[] c : cases) {
            Map<String, String> headers = session(alice, true);
            headers.put("Content-Type", "application/json; charset");
            RawExchange.Answer reply = RawExchange.send(gateway.port(), c[0], c[1], headers,
                    c[2].getBytes(java.nio.charset.StandardCharsets.UTF_8));
            if (reply.status() != 415 || !reply.body().contains("OMCP_UNSUPPORTED_MEDIA_TYPE")) {
                problems.add(c[0] + " " + c[1] + " -> " + reply.status() + " " + reply.body());
            }
        }
        assertThat(problems).isEmpty();
        assertThat(alice.get("/api/auth/revocations").json().path("revocations")).as("nothing revoked").isEmpty();
        assertThat(alice.get("/api/sources").body()).doesNotContain("edge");
    }

    @Test
    void aNameOrTypeOfTheWrongJsonType_inAPut_isRefusedNamingIt_notReadAsLeftOut() throws IOException {
        // found by ManagementApiFuzzIT: {"name": 0} in a PUT was read as no name, and the path's used
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");
        String before = alice.get("/api/sources").body();
        for (String body : List.of("{\"name\": 0, \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:2\"}",
                "{\"name\": [\"shared-prometheus\"], \"type\": \"prometheus\"}",
                "{\"name\": \"shared-prometheus\", \"type\": {\"name\": \"prometheus\"}}")) {
            Browser.Reply reply = alice.send("PUT", "/api/sources/shared-prometheus", body);
            assertThat(reply.status()).as(body + " -> " + reply.body()).isEqualTo(400);
            assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_SOURCE_INVALID");
            assertThat(reply.json().path("errors").toString()).containsAnyOf("'name' must be a string", "'type' must be a string");
        }
        assertThat(alice.get("/api/sources").body()).as("nothing changed").isEqualTo(before);
    }

    /** The session cookie and CSRF token of {@code browser} as raw headers, with a JSON content type when {@code json}. */
    private static Map<String, String> session(Browser browser, boolean json) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("Cookie", String.join("; ", browser.cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
        headers.put("X-CSRF-Token", browser.csrfToken());
        if (json) {
            headers.put("Content-Type", "application/json");
        }
        return headers;
    }
}
