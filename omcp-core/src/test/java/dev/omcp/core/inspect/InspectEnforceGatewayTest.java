package dev.omcp.core.inspect;

import static dev.omcp.core.inspect.InspectFixtures.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.budget.CredentialTokenUsage;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** spec 3.1: enforcement through a real gateway, its dispatcher and the token budget that follows it on the chain. */
class InspectEnforceGatewayTest {
    private static final Principal CI = Principal.apiKey("ci", "acme");

    private final ManualClock clock = new ManualClock(InspectFixtures.T0);
    private final Map<String, AtomicInteger> ran = new ConcurrentHashMap<>();
    private final MemoryObservations store = new MemoryObservations(10);

    private Tool tool(String name) {
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition(name, name, "stands in for " + name, Json.createObjectBuilder().add("type", "object").build(),
                        Optional.empty(), ToolAnnotations.readOnlyLocal());
            }

            @Override
            public ToolResult call(ToolCall call) {
                ran.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                return ToolResult.text("answer of " + name, false);
            }
        };
    }

    private static JsonObject call(Gateway gateway, String tool) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", tool).add("arguments", Json.createObjectBuilder()
                        .add("service", "checkout"))).build().toString();
        McpReply reply = gateway.mcp().handle(new McpInbound(CI, Optional.empty(), Optional.empty(), body, McpTransport.IN_PROCESS),
                McpOutbound.discarding());
        try (JsonReader reader = Json.createReader(new StringReader(((McpReply.Response) reply).json()))) {
            return reader.readObject().getJsonObject("result");
        }
    }

    @Test
    void aBlockedCall_reachesNoTool_andIsChargedNothing_whileACoveredCallRuns() {
        Inspector enforce = new Inspector(InspectMode.ENFORCE, store,
                new MemoryProfile(List.of(accepted("r-1", "key:ci", "query_logs", Map.of("service", List.of("checkout")), Map.of()))),
                feature -> Optional.empty(), clock, Duration.ofHours(24), InspectFixtures.sequentialIds());
        Gateway gateway = Gateway.builder().clock(clock).tokenBudget(10_000).inspect(enforce)
                .tool(tool("query_logs")).tool(tool("query_metrics")).build();

        JsonObject blocked = call(gateway, "query_metrics");
        assertThat(gateway.tokenUsage().snapshot().credentials()).as("a blocked call is charged nothing").isEmpty();
        JsonObject allowed = call(gateway, "query_logs");

        assertThat(blocked.getBoolean("isError")).isTrue();
        assertThat(blocked.getJsonArray("content").getJsonObject(0).getString("text")).contains("\"error\":\"OMCP_INSPECT_BLOCKED\"",
                "\"kind\":\"new-tool\"");
        assertThat(ran).containsOnlyKeys("query_logs");
        assertThat(allowed.getBoolean("isError", false)).isFalse();
        assertThat(gateway.tokenUsage().snapshot().credentials()).extracting(CredentialTokenUsage::actor).containsExactly("key:ci");
        assertThat(gateway.inspect().status().blocked()).isEqualTo(1);
        assertThat(store.newestFirst(ObservationQuery.newest(10))).extracting(Observation::tool, Observation::decision)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("query_logs", Observation.Decision.ALLOW),
                        org.assertj.core.groups.Tuple.tuple("query_metrics", Observation.Decision.BLOCKED));
    }
}
