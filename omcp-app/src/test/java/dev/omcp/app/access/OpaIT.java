package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OMCP_OPA_URL end to end, against an HTTP server speaking OPA's Data API with a small policy:
 * admins may do everything, viewers may read.
 */
class OpaIT {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicBoolean failing = new AtomicBoolean();
    private final AtomicInteger queries = new AtomicInteger();
    /** When set, the fake OPA answers 401 to a question without {@code Authorization: Bearer <this>}, as OPA does with token auth. */
    private final AtomicReference<String> requiredToken = new AtomicReference<>();
    private HttpServer opa;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        opa = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        opa.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        opa.createContext("/v1/data/omcp/authz/allow", exchange -> {
            queries.incrementAndGet();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (requiredToken.get() != null && !("Bearer " + requiredToken.get()).equals(authorization)) {
                byte[] unauthorized = "{\"code\": \"unauthorized\", \"message\": \"missing authentication\"}"
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(401, unauthorized.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(unauthorized);
                }
                return;
            }
            JsonNode input = MAPPER.readTree(exchange.getRequestBody().readAllBytes()).path("input");
            String roles = input.path("subject").path("roles").toString();
            boolean allow = roles.contains("\"admin\"") || (roles.contains("\"viewer\"") && input.path("action").asText().equals("read"));
            byte[] body = (failing.get() ? "{\"code\":\"internal_error\"}" : "{\"result\": " + allow + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(failing.get() ? 500 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        opa.start();
        gateway = TestGateway.start(env(), clock);
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_OPA_URL", "http://127.0.0.1:" + opa.getAddress().getPort());
        env.put("OMCP_OPA_CACHE_TTL", "30");
        return env;
    }

    @AfterEach
    void stop() {
        gateway.close();
        opa.stop(0);
    }

    @Test
    void opaDecidesEveryPermission_andMeListsWhatItAllows() {
        Browser viewer = gateway.browser();
        viewer.login("victor", TestGateway.PASSWORD);
        assertThat(viewer.get("/api/policy").status()).isEqualTo(200);
        Browser.Reply refused = viewer.post("/api/auth/revocations", "{\"sub\": \"alice\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(refused.json().path("have").toString()).contains("audit:read").doesNotContain("users:delete");
        assertThat(viewer.get("/api/me").json().path("permissions").toString()).contains("sources:read").doesNotContain("write");
        Browser admin = gateway.browser();
        admin.login("alice", TestGateway.PASSWORD);
        assertThat(admin.post("/api/auth/revocations", "{\"sub\": \"olivia\"}").status()).isEqualTo(201);
        assertThat(admin.get("/api/policy").json().path("note").asText()).contains("OPA").contains("fails closed");
    }

    @Test
    void decisionsAreCached_forTheTtl() {
        Browser viewer = gateway.browser();
        viewer.login("victor", TestGateway.PASSWORD);
        viewer.get("/api/policy");
        int asked = queries.get();
        viewer.get("/api/policy");
        assertThat(queries.get()).isEqualTo(asked);
        clock.advance(Duration.ofSeconds(30));
        viewer.get("/api/policy");
        assertThat(queries.get()).isEqualTo(asked + 1);
    }

    @Test
    void whenOpaFails_requestsThatNeedAPermissionFailClosedWith503() {
        Browser admin = gateway.browser();
        admin.login("alice", TestGateway.PASSWORD);
        failing.set(true);
        Browser.Reply reply = admin.post("/api/auth/revocations", "{\"sub\": \"olivia\"}");
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().path("code").asText()).isEqualTo("OMCP_POLICY_UNAVAILABLE");
        assertThat(reply.body()).doesNotContain("127.0.0.1");
        assertThat(reply.json().path("error").asText()).as("says what failed").contains("OPA answered HTTP 500");
        failing.set(false);
        assertThat(admin.get("/api/auth/revocations").json().path("revocations")).as("nothing was revoked").isEmpty();
        opa.stop(0);
        clock.advance(Duration.ofMinutes(1));
        assertThat(admin.get("/api/policy").status()).isEqualTo(503);
        assertThat(gateway.audit.events()).anySatisfy(e -> assertThat(e.status()).isEqualTo(503));
    }

    @Test
    void afterOmcpOpaBreakerFailuresInARow_opaIsNotAskedForTheCoolDown_andRequestsAreRefusedAtOnce() {
        gateway.close();
        Map<String, String> env = env();
        env.put("OMCP_OPA_BREAKER_FAILURES", "1");
        env.put("OMCP_OPA_BREAKER_COOLDOWN_MS", "10000");
        env.put("OMCP_OPA_CACHE_TTL", "0");
        gateway = TestGateway.start(env, clock);
        Browser admin = gateway.browser();
        admin.login("alice", TestGateway.PASSWORD);
        failing.set(true);
        assertThat(admin.get("/api/policy").status()).isEqualTo(503);
        int asked = queries.get();
        failing.set(false);

        Browser.Reply refused = admin.get("/api/policy");
        assertThat(refused.status()).as("fail closed while open, though OPA would allow now").isEqualTo(503);
        assertThat(refused.json().path("error").asText()).contains("OPA failed 1 time(s) in a row (last: OPA answered HTTP 500");
        assertThat(queries.get()).as("OPA was not asked").isEqualTo(asked);

        clock.advance(Duration.ofSeconds(10));
        assertThat(admin.get("/api/policy").status()).as("the probe is answered").isEqualTo(200);
    }

    @Test
    void aDenial_namesThePermission_andWhatToDo_andListsOnlyWhatTheCallerHolds() {
        Browser viewer = gateway.browser();
        viewer.login("victor", TestGateway.PASSWORD);
        Browser.Reply refused = viewer.post("/api/auth/revocations", "{\"sub\": \"alice\"}");
        assertThat(refused.status()).isEqualTo(403);
        // with OPA no role table decides, so "which your roles do not grant" told the caller nothing true or useful
        assertThat(refused.json().path("error").asText()).isEqualTo("this needs the permission users:delete, which you do not hold"
                + " (what you hold is listed in 'have'); ask an administrator to grant you users:delete");
        assertThat(refused.json().path("have").toString()).as("spec 7.1: what the caller holds, not the catalog")
                .contains("sources:read").doesNotContain("write").doesNotContain("delete");
    }

    @Test
    void anOpaWithTokenAuthentication_isAskedWithOmcpOpaToken_andRefusesWithoutIt() {
        requiredToken.set("opa-token-value-1");
        Browser admin = gateway.browser();
        admin.login("alice", TestGateway.PASSWORD);
        Browser.Reply refused = admin.get("/api/policy");
        assertThat(refused.status()).as("the gateway without OMCP_OPA_TOKEN").isEqualTo(503);
        assertThat(refused.json().path("error").asText()).contains("OPA answered HTTP 401 (unauthorized)").contains("set OMCP_OPA_TOKEN");
        gateway.close();
        Map<String, String> env = env();
        env.put("OMCP_OPA_TOKEN", "opa-token-value-1");
        gateway = TestGateway.start(env, clock);
        Browser again = gateway.browser();
        again.login("alice", TestGateway.PASSWORD);
        assertThat(again.get("/api/policy").status()).isEqualTo(200);
    }
}
