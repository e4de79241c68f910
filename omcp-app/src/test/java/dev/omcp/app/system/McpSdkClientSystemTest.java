package dev.omcp.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.app.support.ConformanceNode;
import dev.omcp.app.support.LauncherProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The demo gateway driven by the client real agents embed: the official MCP TypeScript SDK
 * ({@code @modelcontextprotocol/sdk}, installed by {@code npm ci} in {@code conformance/} as the
 * conformance suite's dependency). Its {@code Client.listTools} compiles every tool's
 * {@code outputSchema} with ajv and {@code Client.callTool} throws when a result's
 * {@code structuredContent} does not match it, so a schema or a result the Java tests accept (they
 * validate with networknt) could still break Claude Code, Cursor and every bot on the SDK. The
 * script {@code sdk-client/every-tool-through-the-sdk.mjs} calls each of the twelve tools with
 * arguments that fit the demo shop, then the error cases, and reports what the SDK made of each.
 */
@Tag("backend")
class McpSdkClientSystemTest {
    private static final List<String> TWELVE_TOOLS = List.of("list_sources", "list_services", "query_metrics", "query_logs",
            "get_service_health", "detect_anomalies", "get_topology", "get_blast_radius", "get_anomaly_history", "enrich_ips",
            "query_traces", "generate_postmortem");
    /** Calls whose arguments break the tool's rules: a tool error the model can read and correct, not a protocol error. */
    private static final List<String> ARGUMENT_ERRORS = List.of("error: bad duration", "error: duration over the limit",
            "error: missing required argument");

    @Test
    void everyTool_andItsErrors_passTheOfficialSdksOutputSchemaValidation_overStreamableHttpAndWebSocket() throws Exception {
        Path script = Path.of(McpSdkClientSystemTest.class.getResource("/sdk-client/every-tool-through-the-sdk.mjs").toURI());
        Path sdk = ConformanceNode.module("@modelcontextprotocol/sdk");
        try (LauncherProcess launcher = LauncherProcess.start(Map.of(), "demo")) {
            try {
                int port = launcher.awaitPort(Duration.ofSeconds(60));
                ConformanceNode.Result run = ConformanceNode.run(List.of(script.toString(), sdk.toString(),
                        "http://127.0.0.1:" + port + "/mcp", "ws://127.0.0.1:" + port + "/mcp/ws"), Duration.ofMinutes(2));
                assertThat(run.exitCode()).as("the SDK script failed:\n%s", run.output()).isZero();
                JsonNode report = new ObjectMapper().readTree(run.stdout());
                String sdkVersion = report.path("sdkVersion").asText();
                JsonNode http = report.path("http");
                JsonNode webSocket = report.path("webSocket");
                assertThat(http.path("connected").asBoolean()).as("SDK %s over Streamable HTTP: %s", sdkVersion, http).isTrue();
                assertThat(webSocket.path("connected").asBoolean()).as("SDK %s over WebSocket: %s", sdkVersion, webSocket).isTrue();

                // softly: a defect shows with every other one the same run found
                SoftAssertions.assertSoftly(softly -> {
                    softly.assertThat(rejected(http.path("calls"))).as("calls the MCP TypeScript SDK %s threw on over Streamable HTTP",
                            sdkVersion).isEmpty();
                    softly.assertThat(rejected(webSocket.path("calls"))).as("calls the MCP TypeScript SDK %s threw on over WebSocket",
                            sdkVersion).isEmpty();
                    softly.assertThat(http.path("strictCompileFailures")).as("schemas ajv refuses in strict mode").isEmpty();
                    softly.assertThat(names(http.path("tools"))).containsExactlyInAnyOrderElementsOf(TWELVE_TOOLS);
                    softly.assertThat(names(webSocket.path("tools"))).containsExactlyInAnyOrderElementsOf(TWELVE_TOOLS);
                    softly.assertThat(list(http.path("tools"))).as("tools with an outputSchema")
                            .allSatisfy(tool -> assertThat(tool.path("hasOutputSchema").asBoolean()).as(tool.toString()).isTrue());
                    softly.assertThat(http.path("nextCursor").isNull()).as("all twelve tools on one page").isTrue();

                    List<JsonNode> calls = list(http.path("calls"));
                    softly.assertThat(calls.stream().filter(call -> call.path("accepted").asBoolean() && !call.path("isError").asBoolean())
                            .map(call -> call.path("tool").asText()).distinct().toList())
                            .as("tools that answered without isError").containsAll(TWELVE_TOOLS);
                    softly.assertThat(calls).filteredOn(call -> ARGUMENT_ERRORS.contains(call.path("label").asText()))
                            .hasSize(ARGUMENT_ERRORS.size())
                            .allSatisfy(call -> assertThat(call.path("isError").asBoolean()).as(call.toString()).isTrue());
                });
            } finally {
                // SIGTERM, not the SIGKILL of close(): the demo removes its working directory only when it is let stop
                launcher.terminate();
                launcher.awaitExit(Duration.ofSeconds(30));
            }
        }
    }

    /** The calls the SDK threw on, each with its arguments and the SDK's message. */
    private static List<String> rejected(JsonNode calls) {
        List<String> rejected = new ArrayList<>();
        for (JsonNode call : calls) {
            if (!call.path("accepted").asBoolean()) {
                rejected.add(call.path("label").asText() + " " + call.path("arguments") + ": " + call.path("error").asText());
            }
        }
        return rejected;
    }

    private static List<JsonNode> list(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).toList();
    }

    private static List<String> names(JsonNode tools) {
        return list(tools).stream().map(tool -> tool.path("name").asText()).toList();
    }
}
