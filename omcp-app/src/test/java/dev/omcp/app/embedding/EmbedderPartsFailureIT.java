package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an agent sees over {@code /mcp} when a part the embedding service wrote fails (docs/embedding.md,
 * "Your own parts"): an answer it can read, never the exception's message, which may hold secrets.
 */
class EmbedderPartsFailureIT {
    private static final String SECRET = "jdbc:postgresql://db/orders?password=hunter2";

    private record Failing(String name, Supplier<ToolResult> body) implements Tool {
        @Override
        public ToolDefinition definition() {
            return new ToolDefinition(name, name, "Fails.", Jsonp.object().add("type", "object").build(),
                    Optional.empty(), ToolAnnotations.readOnlyLocal());
        }

        @Override
        public ToolResult call(ToolCall call) {
            return body.get();
        }
    }

    private static GatewayHttpServer server(Gateway gateway, AgentAuthentication authentication) {
        return GatewayHttpServer.builder().settings(HttpServerSettings.loopback(0)).mcp(gateway.mcp())
                .agentAuthentication(authentication).description(gateway.description()).build().start();
    }

    @ParameterizedTest
    @ValueSource(strings = {"runtime_exception", "assertion_error", "class_initialization_error", "null_result"})
    void aToolThatThrowsOrReturnsNull_answersAnErrorResultWithAnErrorId_notAnHttp500OrItsMessage(String tool) {
        Gateway gateway = Gateway.builder()
                .tool(new Failing("runtime_exception", () -> {
                    throw new IllegalStateException(SECRET);
                }))
                .tool(new Failing("assertion_error", () -> {
                    throw new AssertionError(SECRET);
                }))
                // what a tool whose static initializer throws gives its first call
                .tool(new Failing("class_initialization_error", () -> {
                    throw new ExceptionInInitializerError(SECRET);
                }))
                .tool(new Failing("null_result", () -> null))
                .build();
        try (GatewayHttpServer server = server(gateway, gateway.agentAuthentication())) {
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + server.port());
            client.initialize();

            HttpResponse<String> response = client.post(
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":{}}}",
                    Map.of());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonObject result = McpHttpClient.parse(McpHttpClient.lastMessage(response)).getJsonObject("result");
            assertThat(result).as(response.body()).isNotNull();
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text"))
                    .contains("Tool " + tool + " failed unexpectedly (error id ").doesNotContain("hunter2");
        }
    }

    @Test
    void anAgentAuthenticationThatThrows_answersA500WithAnErrorId_withoutItsMessageOrTheToken() {
        AgentAuthentication throwing = new AgentAuthentication() {
            @Override
            public AgentAuthResult authenticate(Optional<String> bearerToken) {
                throw new IllegalStateException("directory down for " + bearerToken.orElse("") + " " + SECRET);
            }

            @Override
            public boolean keysConfigured() {
                return true;
            }
        };
        try (GatewayHttpServer server = server(Gateway.builder().build(), throwing)) {
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + server.port(),
                    Map.of("Authorization", "Bearer agent-token-123"));

            HttpResponse<String> response = client.initialize();

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.body()).contains("OMCP_INTERNAL_ERROR").contains("error id")
                    .doesNotContain("hunter2").doesNotContain("agent-token-123");
        }
    }
}
