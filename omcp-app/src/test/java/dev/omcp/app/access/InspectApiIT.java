package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.ports.audit.AuditEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inspect through real HTTP (spec 2.14, 3.1, 4.3; DECISIONS.md "Entitlements"): an agent's tool call shows up in
 * {@code /api/inspect/events} as its signature, the mode is read and switched with an audit entry, enforce without
 * the entitlement answers 403, and a viewer cannot switch.
 */
class InspectApiIT {
    private static final String TOKEN = "ci-bot-token-0123456789abcdef";
    private static final String SECRET = "Bearer sk-live-4242424242";
    @TempDir
    Path dir;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("OMCP_API_KEYS", "ci:" + TOKEN);
        env.put("OMCP_INSPECT_FILE", dir.resolve("inspect.jsonl").toString());
        gateway = TestGateway.start(env, Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void aToolCall_showsUpAsItsSignature_withoutItsFilterText() throws Exception {
        McpHttpClient agent = McpHttpClient.at(gateway.base() + "/mcp", Map.of("Authorization", "Bearer " + TOKEN));
        agent.initialize();
        String arguments = "{\"service\":\"checkout\",\"filter\":\"|= \\\"" + SECRET + "\\\"\",\"limit\":50}";
        String answer = agent.call("tools/call", "{\"name\":\"query_logs\",\"arguments\":" + arguments + "}").toString();

        Browser olivia = ManagementUsers.login(gateway, "olivia");
        Browser.Reply events = olivia.get("/api/inspect/events?tool=query_logs&limit=10");

        assertThat(events.status()).as(events.body()).isEqualTo(200);
        assertThat(events.body()).doesNotContain("sk-live").doesNotContain("Bearer");
        assertThat(events.json().path("count").asInt()).as(answer + " / " + events.body()).isEqualTo(1);
        JsonNode event = events.json().path("events").get(0);
        assertThat(event.path("principal").asText()).isEqualTo("key:ci");
        assertThat(event.path("tool").asText()).isEqualTo("query_logs");
        assertThat(event.path("resources").path("service").asText()).isEqualTo("checkout");
        assertThat(event.path("args").path("filter").asText()).startsWith("text:len<=64:");
        assertThat(event.path("args").path("limit").asText()).isEqualTo("num:<=100");
        assertThat(event.path("decision").asText()).isEqualTo("allow");
        assertThat(Files.readString(dir.resolve("inspect.jsonl"))).contains("query_logs").doesNotContain("sk-live");
        assertThat(olivia.get("/api/inspect/events?tool=query_logs&acter=x").status()).as("strict parameters").isEqualTo(400);
        Browser victor = ManagementUsers.login(gateway, "victor");
        assertThat(victor.get("/api/inspect/events").json().path("count").asInt()).as("tenant acme sees its records only").isZero();
    }

    @Test
    void theModeIsReadAndSwitched_withAnAuditEntry_enforceNeedsTheEntitlement() {
        Browser alice = ManagementUsers.login(gateway, "alice");
        Browser.Reply mode = alice.get("/api/inspect/mode");
        assertThat(mode.json().path("mode").asText()).isEqualTo("observe");
        assertThat(mode.json().path("counts").has("dropped")).isTrue();

        Browser.Reply dryrun = alice.send("PUT", "/api/inspect/mode", "{\"mode\":\"dryrun\"}");
        Browser.Reply off = alice.send("PUT", "/api/inspect/mode", "{\"mode\":\"off\"}");
        Browser.Reply enforce = alice.send("PUT", "/api/inspect/mode", "{\"mode\":\"enforce\"}");

        assertThat(dryrun.status()).as(dryrun.body()).isEqualTo(200);
        assertThat(dryrun.json().path("previous").asText()).isEqualTo("observe");
        assertThat(off.status()).as(off.body()).isEqualTo(200);
        assertThat(enforce.status()).isEqualTo(403);
        assertThat(enforce.json().path("code").asText()).isEqualTo("OMCP_ENTITLEMENT_REQUIRED");
        assertThat(alice.get("/api/inspect/mode").json().path("mode").asText()).as("unchanged by the refusal").isEqualTo("off");
        List<AuditEvent> audited = gateway.audit.events().stream().filter(e -> e.resource().equals("inspection")).toList();
        assertThat(audited).extracting(AuditEvent::actor, AuditEvent::action, AuditEvent::status)
                .contains(tuple("alice", "write", 200));
    }

    @Test
    void aViewerReadsButCannotSwitch() {
        Browser victor = ManagementUsers.login(gateway, "victor");

        Browser.Reply refused = victor.send("PUT", "/api/inspect/mode", "{\"mode\":\"off\"}");

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(victor.get("/api/inspect/mode").json().path("mode").asText()).isEqualTo("observe");
    }
}
