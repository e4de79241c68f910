package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.core.policy.BuiltinPolicy;
import dev.omcp.testkit.time.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 5.5, 7.1, 4.3 (GET /api/policy) and 5.1 (anonymous mode). */
class RbacIT {
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
    void anonymousMode_everythingIsOpen_meIsAnonymousWithEveryPermission() {
        gateway = TestGateway.start(Map.of(), clock);
        Browser browser = gateway.browser();
        JsonNode me = browser.get("/api/me").json();
        assertThat(me.path("sub").asText()).isEqualTo("anonymous");
        List<String> permissions = new java.util.ArrayList<>();
        me.path("permissions").forEach(p -> permissions.add(p.asText()));
        assertThat(permissions).containsExactlyElementsOf(BuiltinPolicy.ALL.stream().map(Object::toString).toList());
        assertThat(browser.get("/api/policy").status()).isEqualTo(200);
        browser.get("/api/info");
        assertThat(browser.post("/api/auth/revocations", "{\"sid\": \"abc\"}").status()).isEqualTo(201);
        assertThat(browser.get("/api/info").json().path("governance").path("authMode").asText()).isEqualTo("anonymous");
        assertThat(browser.post("/api/auth/login", "{\"username\": \"a\", \"password\": \"b\"}").json().path("code").asText())
                .isEqualTo("OMCP_LOGIN_NOT_AVAILABLE");
        assertThat(gateway.audit.events()).anySatisfy(e -> assertThat(e.actor()).isEqualTo("anonymous"));
    }

    @Test
    void policyRoute_showsTheBuiltinRolesToAdmins_only() {
        gateway = TestGateway.start(TestGateway.basicMode(dir), clock);
        Browser admin = gateway.browser();
        admin.login("alice", TestGateway.PASSWORD);
        JsonNode policy = admin.get("/api/policy").json();
        assertThat(policy.path("roles").toString()).isEqualTo("[\"viewer\",\"operator\",\"admin\"]");
        assertThat(policy.path("policy").path("viewer").toString()).contains("audit:read");
        assertThat(policy.path("policy").path("admin").toString()).isEqualTo("[\"*\"]");
        assertThat(policy.path("note").asText()).contains("Builtin roles");
        Browser viewer = gateway.browser();
        viewer.login("victor", TestGateway.PASSWORD);
        Browser.Reply refused = viewer.get("/api/policy");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("required").toString()).isEqualTo("{\"resource\":\"policy\",\"action\":\"read\"}");
    }

    @Test
    void aCustomPolicyFileReplacesTheBuiltinRoles() throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                version: 1
                roles:
                  viewer: [policy:read, audit:read]
                  operator: []
                """);
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_RBAC_POLICY_FILE", policy.toString());
        gateway = TestGateway.start(env, clock);
        Browser viewer = gateway.browser();
        viewer.login("victor", TestGateway.PASSWORD);
        assertThat(viewer.get("/api/me").json().path("permissions").toString()).isEqualTo("[\"audit:read\",\"policy:read\"]");
        assertThat(viewer.get("/api/policy").json().path("note").asText()).contains(policy.toString());
        Browser admin = gateway.browser();
        admin.login("alice", TestGateway.PASSWORD);
        Browser.Reply refused = admin.get("/api/policy");
        assertThat(refused.status()).as("the file defines no admin role").isEqualTo(403);
        assertThat(refused.json().path("have")).isEmpty();
    }

    @Test
    void anInvalidPolicyFileRefusesTheStart_namingEveryProblem() throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, "roles:\n  viewer: [sorces:read, audit:rread]\n");
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_RBAC_POLICY_FILE", policy.toString());
        assertThatThrownBy(() -> TestGateway.start(env, clock)).isInstanceOf(dev.omcp.app.wiring.StartRefusedException.class)
                .hasMessageContaining("sorces").hasMessageContaining("audit:rread");
        env.put("OMCP_RBAC_POLICY_FILE", dir.resolve("missing.yaml").toString());
        assertThatThrownBy(() -> TestGateway.start(env, clock)).hasMessageContaining("does not exist");
    }

    @Test
    void aPolicyFileAndOpaTogetherAreASettingsError() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_RBAC_POLICY_FILE", "/x.yaml");
        env.put("OMCP_OPA_URL", "http://127.0.0.1:1");
        assertThatThrownBy(() -> TestGateway.start(env, clock)).hasMessageContaining("choose one policy source");
    }
}
