package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.testkit.time.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec 2.9, 4.3: {@code GET /api/usage} behind the permission {@code audit:read}, in basic mode. */
class UsageApiIT {
    private static final String CI_TOKEN = "ci-0123456789abcdef0123";
    private static final String BOT_TOKEN = "bot-0123456789abcdef0123";

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

    private Map<String, String> basicModeWithKeys() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_API_KEYS", "ci:" + CI_TOKEN + ",bot:" + BOT_TOKEN);
        env.put("OMCP_TOOL_RATE_PER_MIN", "30");
        return env;
    }

    @Test
    void everyBuiltinRole_readsTheUsageOfEveryKey_evenOneThatSentNothing() {
        gateway = TestGateway.start(basicModeWithKeys(), clock);
        McpHttpClient ci = new McpHttpClient(gateway.base(), Map.of("Authorization", "Bearer " + CI_TOKEN));
        ci.initialize();
        ci.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", Map.of());
        for (String user : new String[] {"alice", "olivia"}) {
            Browser browser = gateway.browser();
            browser.login(user, TestGateway.PASSWORD);
            Browser.Reply usage = browser.get("/api/usage");
            assertThat(usage.status()).as(user).isEqualTo(200);
            assertThat(usage.json().toString()).as(user).isEqualTo("{\"identities\":["
                    + "{\"actor\":\"key:bot\",\"count\":0,\"limit\":30,\"windowMs\":60000},"
                    + "{\"actor\":\"key:ci\",\"count\":2,\"limit\":30,\"windowMs\":60000}],"
                    + "\"defaultLimit\":30,\"windowMs\":60000,"
                    + "\"tokens\":{\"defaultLimit\":null,\"windowMs\":86400000}}");
        }
    }

    @Test
    void aCallerBoundToATenant_seesOnlyTheKeysOfItsTenant() {
        gateway = TestGateway.start(basicModeWithKeys(), clock);
        Browser victor = gateway.browser();
        victor.login("victor", TestGateway.PASSWORD);
        JsonNode usage = victor.get("/api/usage").json();
        assertThat(usage.path("identities").isArray()).isTrue();
        assertThat(usage.path("identities")).as("both keys are bound to no tenant, victor to acme").isEmpty();
        assertThat(usage.path("defaultLimit").asInt()).isEqualTo(30);
    }

    @Test
    void aRoleWithoutAuditRead_isRefusedWith403() throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                version: 1
                roles:
                  viewer: [sources:read]
                  admin: [audit:read]
                """);
        Map<String, String> env = basicModeWithKeys();
        env.put("OMCP_RBAC_POLICY_FILE", policy.toString());
        gateway = TestGateway.start(env, clock);
        Browser viewer = gateway.browser();
        viewer.login("victor", TestGateway.PASSWORD);
        Browser.Reply refused = viewer.get("/api/usage");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(refused.json().path("required").toString()).isEqualTo("{\"resource\":\"audit\",\"action\":\"read\"}");
        assertThat(refused.body()).doesNotContain("key:ci");
        Browser admin = gateway.browser();
        admin.login("alice", TestGateway.PASSWORD);
        assertThat(admin.get("/api/usage").status()).isEqualTo(200);
    }

    @Test
    void actor_narrowsToOneIdentity_byNameOrPrincipalId_andAnUnseenOneReadsAsCountZero() {
        gateway = TestGateway.start(basicModeWithKeys(), clock);
        McpHttpClient ci = new McpHttpClient(gateway.base(), Map.of("Authorization", "Bearer " + CI_TOKEN));
        ci.initialize();
        Browser alice = gateway.browser();
        alice.login("alice", TestGateway.PASSWORD);
        String ciEntry = "{\"actor\":\"key:ci\",\"count\":1,\"limit\":30,\"windowMs\":60000}";
        assertThat(alice.get("/api/usage?actor=ci").json().path("identities").toString()).isEqualTo("[" + ciEntry + "]");
        assertThat(alice.get("/api/usage?actor=key:ci").json().path("identities").toString()).isEqualTo("[" + ciEntry + "]");
        assertThat(alice.get("/api/usage?actor=nobody").json().path("identities").toString())
                .as("spec 4.3: count 0 if unseen, which also keeps the answer from telling which names exist")
                .isEqualTo("[{\"actor\":\"key:nobody\",\"count\":0,\"limit\":30,\"windowMs\":60000}]");
        Browser.Reply twice = alice.get("/api/usage?actor=ci&actor=bot");
        assertThat(twice.status()).isEqualTo(400);
        assertThat(twice.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
        Browser.Reply other = alice.get("/api/usage?limit=3");
        assertThat(other.status()).isEqualTo(400);
        assertThat(other.json().path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
    }

    @Test
    void withoutASession_theUsageIs401() {
        gateway = TestGateway.start(basicModeWithKeys(), clock);
        assertThat(gateway.browser().get("/api/usage").status()).isEqualTo(401);
    }
}
