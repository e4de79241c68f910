package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.RunningGateway;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The official MCP Java SDK client drives the gateway over Streamable HTTP. */
class JavaSdkInteropIT {
    private static RunningGateway gateway;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static McpClient.SyncSpec client() {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(gateway.baseUrl())
                .endpoint("/mcp")
                .build();
        return McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(20))
                .clientInfo(new McpSchema.Implementation("omcp-interop-test", "1.0.0"));
    }

    @Test
    void theOfficialClient_initializesListsAndCallsTools() {
        try (McpSyncClient mcp = client().build()) {
            McpSchema.InitializeResult init = mcp.initialize();
            assertThat(init.protocolVersion()).isEqualTo("2025-11-25");
            assertThat(init.serverInfo().name()).isEqualTo("omcp");
            mcp.ping();
            List<String> names = mcp.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertThat(names).contains("test_simple_text", "json_schema_2020_12_tool");
            McpSchema.CallToolResult result = mcp.callTool(new McpSchema.CallToolRequest("test_simple_text", Map.of()));
            assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
            assertThat(((McpSchema.TextContent) result.content().getFirst()).text()).contains("simple text");
        }
    }

    @Test
    void progressAndLogNotifications_reachTheOfficialClient() {
        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
        try (McpSyncClient mcp = client().progressConsumer(progress::add).loggingConsumer(logs::add).build()) {
            mcp.initialize();
            mcp.callTool(McpSchema.CallToolRequest.builder("test_tool_with_progress").arguments(Map.of())
                    .progressToken("interop-1").build());
            mcp.callTool(new McpSchema.CallToolRequest("test_tool_with_logging", Map.of()));
        }
        // The official client hands notifications to its consumers on a scheduler of its own, so they may
        // arrive late and out of order; the order on the wire is checked in StreamableHttpIT.
        awaitSize(progress, 3);
        awaitSize(logs, 3);
        assertThat(progress).extracting(McpSchema.ProgressNotification::progress).containsExactlyInAnyOrder(0.0, 50.0, 100.0);
        assertThat(logs).hasSize(3);
    }

    @Test
    void samplingRequests_areAnsweredByTheOfficialClient() {
        try (McpSyncClient mcp = client()
                .capabilities(McpSchema.ClientCapabilities.builder().sampling().build())
                .sampling(request -> McpSchema.CreateMessageResult.builder()
                        .role(McpSchema.Role.ASSISTANT)
                        .content(new McpSchema.TextContent("forty-two"))
                        .model("test-model")
                        .build())
                .build()) {
            mcp.initialize();
            McpSchema.CallToolResult result = mcp.callTool(new McpSchema.CallToolRequest("test_sampling", Map.of("prompt", "answer?")));
            assertThat(((McpSchema.TextContent) result.content().getFirst()).text()).isEqualTo("LLM response: forty-two");
        }
    }

    @Test
    void promptsAndResources_work() {
        try (McpSyncClient mcp = client().build()) {
            mcp.initialize();
            assertThat(mcp.listPrompts().prompts()).extracting(McpSchema.Prompt::name).contains("test_prompt_with_arguments");
            McpSchema.GetPromptResult prompt = mcp.getPrompt(new McpSchema.GetPromptRequest("test_prompt_with_arguments",
                    Map.of("arg1", "hello", "arg2", "world")));
            assertThat(((McpSchema.TextContent) prompt.messages().getFirst().content()).text()).contains("arg1='hello'");
            McpSchema.ReadResourceResult resource = mcp.readResource(new McpSchema.ReadResourceRequest("test://template/42/data"));
            assertThat(((McpSchema.TextResourceContents) resource.contents().getFirst()).text()).contains("\"id\":\"42\"");
        }
    }

    private static void awaitSize(List<?> received, int expected) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (received.size() < expected && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
