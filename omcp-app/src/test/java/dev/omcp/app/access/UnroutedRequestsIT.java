package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests no route takes, through a real gateway in basic mode: a path served for other methods
 * answers 405 with {@code Allow} (RFC 9110 15.5.6), any other 404; a mutating one under
 * {@code /api} is audited like every mutating request, whatever its outcome (docs/audit.md).
 */
class UnroutedRequestsIT {
    @TempDir
    Path dir;

    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        Path sources = dir.resolve("sources.yaml");
        Files.writeString(sources, """
                sources:
                  - name: prod
                    type: prometheus
                    url: http://127.0.0.1:1
                """);
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", sources.toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        gateway = TestGateway.start(env, new ManualClock(Instant.parse("2026-03-01T10:00:00Z")));
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    private static Browser.Reply send(Browser browser, String methodAndPath) {
        String[] request = methodAndPath.split(" ");
        boolean withBody = Set.of("POST", "PUT", "PATCH").contains(request[0]);
        return browser.send(request[0], request[1], withBody ? "{}" : null);
    }

    private List<AuditEvent> unrouted() {
        return gateway.audit.events().stream().filter(e -> e.status() == 404 || e.status() == 405).toList();
    }

    @Test
    void aServedPathAskedWithAnotherMethod_is405_withAllowNamingTheMethodsItAnswers() {
        Browser alice = ManagementUsers.login(gateway, "alice");
        Map<String, String> allowed = new LinkedHashMap<>();
        allowed.put("GET /api/auth/login", "POST, OPTIONS");
        allowed.put("POST /api/info", "GET, HEAD, OPTIONS");
        allowed.put("PUT /api/sources", "GET, HEAD, POST, OPTIONS");
        allowed.put("GET /api/playground/invoke", "POST, OPTIONS");
        allowed.put("PATCH /api/sources/prod", "GET, HEAD, PUT, DELETE, OPTIONS");
        // the fixed path and /api/health/<service> both match: every method of either is allowed
        allowed.put("DELETE /api/health/thresholds", "GET, HEAD, PUT, OPTIONS");
        allowed.put("POST /healthz", "GET, HEAD, OPTIONS");

        allowed.forEach((request, methods) -> {
            Browser.Reply reply = send(alice, request);
            assertThat(reply.status()).as(request).isEqualTo(405);
            assertThat(reply.header("Allow")).as(request).isEqualTo(methods);
            assertThat(reply.json().path("code").asText()).as(request).isEqualTo("OMCP_METHOD_NOT_ALLOWED");
            assertThat(reply.json().path("error").asText()).as(request).contains(request.split(" ")[0]).contains(methods);
        });
    }

    @Test
    void withoutASession_the405And404AreAnsweredAlike_sinceGetOpenApiJsonListsEveryRouteToAnyone() {
        Browser anonymous = gateway.browser();

        Browser.Reply wrongMethod = send(anonymous, "PUT /api/sources");
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.header("Allow")).isEqualTo("GET, HEAD, POST, OPTIONS");

        Browser.Reply noPath = send(anonymous, "POST /api/nothing-here");
        assertThat(noPath.status()).isEqualTo(404);
        assertThat(noPath.json().path("code").asText()).isEqualTo("OMCP_NOT_FOUND");
        assertThat(noPath.header("Allow")).isNull();

        assertThat(send(anonymous, "GET /api/sources").status()).as("the route itself still needs a session").isEqualTo(401);
        assertThat(anonymous.get("/api/openapi.json").json().path("paths").path("/api/sources").has("post")).isTrue();
    }

    @Test
    void optionsWithoutOrigin_on_aServedPath_is204WithAllow_withoutASession_andIsNotAudited() {
        Browser anonymous = gateway.browser();

        Browser.Reply options = send(anonymous, "OPTIONS /api/sources");
        assertThat(options.status()).isEqualTo(204);
        assertThat(options.header("Allow")).isEqualTo("GET, HEAD, POST, OPTIONS");
        assertThat(options.body()).isEmpty();
        assertThat(send(anonymous, "OPTIONS /api/sources/prod").header("Allow")).isEqualTo("GET, HEAD, PUT, DELETE, OPTIONS");

        Browser.Reply nowhere = send(anonymous, "OPTIONS /api/nothing-here");
        assertThat(nowhere.status()).isEqualTo(404);
        assertThat(nowhere.header("Allow")).isNull();
        assertThat(unrouted()).isEmpty();
    }

    @Test
    void mutatingRequestsNoRouteTakes_areAudited_withTheirStatus_andChangeNothing() {
        Browser alice = ManagementUsers.login(gateway, "alice");
        String thresholds = alice.get("/api/health/thresholds").body();
        Browser anonymous = gateway.browser();

        assertThat(send(alice, "PATCH /api/sources/prod").status()).isEqualTo(405);
        assertThat(send(alice, "DELETE /api/health/thresholds").status()).isEqualTo(405);
        assertThat(send(anonymous, "POST /api/nothing-here").status()).isEqualTo(404);
        assertThat(send(anonymous, "DELETE /api/nothing/else/here").status()).isEqualTo(404);
        // not audited: reads, and paths outside /api
        assertThat(send(anonymous, "GET /api/nothing-here").status()).isEqualTo(404);
        assertThat(send(alice, "GET /api/auth/login").status()).isEqualTo(405);
        assertThat(send(anonymous, "POST /healthz").status()).isEqualTo(405);

        assertThat(unrouted()).extracting(AuditEvent::actor, AuditEvent::resource, AuditEvent::action, AuditEvent::method,
                AuditEvent::path, AuditEvent::status, AuditEvent::target).containsExactly(
                tuple("alice", "sources", "patch", "PATCH", "/api/sources/prod", 405, "prod"),
                tuple("alice", "health", "delete", "DELETE", "/api/health/thresholds", 405, ""),
                // a path that names nothing gets fixed names: a flood of junk paths adds entries as any
                // refused request does, never new resources or actions
                tuple("unauthenticated", "api", "post", "POST", "/api/nothing-here", 404, ""),
                tuple("unauthenticated", "api", "delete", "DELETE", "/api/nothing/else/here", 404, ""));
        assertThat(unrouted()).allSatisfy(e -> assertThat(e.ip()).isEqualTo("127.0.0.1"));

        assertThat(alice.get("/api/health/thresholds").body()).isEqualTo(thresholds);
        assertThat(alice.get("/api/sources").json().path("sources").findValuesAsText("name")).containsExactly("prod");
    }
}
