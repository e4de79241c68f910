package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.app.support.McpHttpClient;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inspect's whole workflow through real HTTP and the launcher's wiring (spec 3.1, 3.2, 2.14; docs/inspect.md):
 * observe, derive, review, dry-run, enforce, and the profile file across a restart.
 */
class InspectWorkflowIT {
    private static final String CI = "ci-bot-token-0123456789abcdef";
    private static final String BOT = "bot-token-0123456789abcdef01";
    @TempDir
    Path dir;
    private final EntitlementIssuer issuer = new EntitlementIssuer();
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private Map<String, String> env(boolean entitled) {
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("OMCP_API_KEYS", "ci:" + CI + ",bot:" + BOT);
        env.put("OMCP_INSPECT_FILE", dir.resolve("inspect.jsonl").toString());
        env.put("OMCP_INSPECT_PROFILE_FILE", dir.resolve("profile.yaml").toString());
        if (entitled) {
            Instant now = Instant.now();
            env.put("OMCP_ENTITLEMENT_TOKEN", issuer.token("inspect-enforce", now.minusSeconds(60), now.plus(Duration.ofDays(1))));
            env.put("OMCP_ENTITLEMENT_PUBKEY", issuer.publicKeyPem());
        }
        return env;
    }

    private McpHttpClient agent(String token) {
        McpHttpClient agent = McpHttpClient.at(gateway.base() + "/mcp", Map.of("Authorization", "Bearer " + token));
        agent.initialize();
        return agent;
    }

    private static JsonObject callTool(McpHttpClient agent, String name, String arguments) {
        return agent.call("tools/call", "{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}").getJsonObject("result");
    }

    @Test
    void observeDeriveAcceptDryrunEnforce_andTheProfileSurvivesARestart() throws Exception {
        gateway = TestGateway.start(env(true), Clock.systemUTC());
        McpHttpClient ci = agent(CI);
        ci.toolResult("list_sources", "{}");
        ci.toolResult("list_sources", "{}");
        ci.toolResult("list_services", "{\"limit\":20}");
        Browser alice = ManagementUsers.login(gateway, "alice");

        Browser.Reply derived = alice.post("/api/inspect/profile/derive", "{}");
        assertThat(derived.status()).as(derived.body()).isEqualTo(200);
        assertThat(derived.json().path("suggested")).hasSize(2);
        Browser.Reply enforceTooEarly = alice.send("PUT", "/api/inspect/mode", "{\"mode\":\"enforce\"}");
        assertThat(enforceTooEarly.status()).as("no accepted rule yet: " + enforceTooEarly.body()).isEqualTo(409);
        assertThat(enforceTooEarly.json().path("code").asText()).isEqualTo("OMCP_INSPECT_NO_ACCEPTED_RULES");
        for (JsonNode rule : derived.json().path("suggested")) {
            assertThat(rule.path("subject").asText()).isEqualTo("key:ci");
            assertThat(rule.path("provenance").path("learnedFrom").asLong()).isPositive();
            Browser.Reply accepted = alice.send("PATCH", "/api/inspect/profile/rules/" + rule.path("id").asText(),
                    "{\"status\":\"accepted\"}");
            assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);
        }
        assertThat(Files.readString(dir.resolve("profile.yaml"))).contains("key:ci").contains("accepted");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("profile.yaml")))).isEqualTo("rw-------");

        assertThat(alice.send("PUT", "/api/inspect/mode", "{\"mode\":\"dryrun\"}").status()).isEqualTo(200);
        McpHttpClient bot = agent(BOT);
        JsonObject dry = callTool(bot, "list_sources", "{}");
        assertThat(dry.getBoolean("isError", false)).as("dry-run never blocks: " + dry).isFalse();
        JsonNode wouldBlock = alice.get("/api/inspect/events?decision=would-block").json();
        assertThat(wouldBlock.path("count").asInt()).as(wouldBlock.toString()).isEqualTo(1);
        assertThat(wouldBlock.path("events").get(0).path("principal").asText()).isEqualTo("key:bot");
        JsonNode deviations = alice.get("/api/inspect/deviations").json();
        assertThat(deviations.path("byKind").path("new-principal").asLong()).as(deviations.toString()).isEqualTo(1);

        Browser.Reply enforce = alice.send("PUT", "/api/inspect/mode", "{\"mode\":\"enforce\"}");
        assertThat(enforce.status()).as(enforce.body()).isEqualTo(200);
        JsonObject blocked = callTool(bot, "list_sources", "{}");
        assertThat(blocked.getBoolean("isError", false)).as(blocked.toString()).isTrue();
        assertThat(blocked.toString()).contains("OMCP_INSPECT_BLOCKED").contains("new-principal");
        assertThat(callTool(ci, "list_sources", "{}").getBoolean("isError", false)).as("covered by an accepted rule").isFalse();
        JsonObject newTool = callTool(ci, "query_traces", "{}");
        assertThat(newTool.toString()).as("a tool no rule names").contains("OMCP_INSPECT_BLOCKED").contains("new-tool");
        assertThat(alice.get("/api/inspect/events?decision=blocked").json().path("count").asInt()).isEqualTo(2);
        JsonNode flows = alice.get("/api/inspect/flows").json();
        assertThat(flows.path("nodes").toString()).contains("principal:key:ci").contains("tool:list_sources");
        assertThat(gateway.audit.events()).anySatisfy(e -> assertThat(e.path()).contains("/api/inspect/profile/derive"));

        gateway.close();
        Map<String, String> restart = env(true);
        restart.put("OMCP_INSPECT", "enforce");
        gateway = TestGateway.start(restart, Clock.systemUTC());
        Browser again = ManagementUsers.login(gateway, "alice");
        assertThat(again.get("/api/inspect/mode").json().path("mode").asText()).isEqualTo("enforce");
        assertThat(again.get("/api/inspect/profile").json().path("counts").path("accepted").asInt()).isEqualTo(2);
        assertThat(callTool(agent(BOT), "list_sources", "{}").toString()).contains("OMCP_INSPECT_BLOCKED");
    }

    @Test
    void enforceAtStartWithoutTheEntitlement_runsDryrun_andWithoutAcceptedRules_refusesTheStart() {
        Map<String, String> unentitled = env(false);
        unentitled.put("OMCP_INSPECT", "enforce");
        gateway = TestGateway.start(unentitled, Clock.systemUTC());
        assertThat(ManagementUsers.login(gateway, "alice").get("/api/inspect/mode").json().path("mode").asText()).isEqualTo("dryrun");
        gateway.close();
        gateway = null;

        Map<String, String> empty = env(true);
        empty.put("OMCP_INSPECT", "enforce");
        assertThatStartFails(empty, "accepted rule");
    }

    @Test
    void anInvalidProfileFile_refusesTheStartNamingTheLine() throws Exception {
        Files.writeString(dir.resolve("profile.yaml"), "version: 1\nrules:\n  - id: r-1\n    subject: key:ci\n    tool: list_sources\n"
                + "    colour: red\n");
        assertThatStartFails(env(false), "colour");
    }

    @Test
    void aTenantBoundCaller_cannotReadOrChangeTheGatewayWideProfile() {
        gateway = TestGateway.start(env(false), Clock.systemUTC());
        Browser victor = ManagementUsers.login(gateway, "victor");
        Browser.Reply profile = victor.get("/api/inspect/profile");
        assertThat(profile.status()).as(profile.body()).isEqualTo(403);
        assertThat(profile.json().path("code").asText()).isEqualTo("OMCP_INSPECT_GATEWAY_WIDE");
        assertThat(victor.get("/api/inspect/deviations").status()).isEqualTo(200);
    }

    private static void assertThatStartFails(Map<String, String> env, String saying) {
        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> TestGateway.start(env, Clock.systemUTC()).close());
        assertThat(refused).as("the start is refused").isNotNull();
        assertThat(refused.getMessage()).contains(saying);
    }
}
