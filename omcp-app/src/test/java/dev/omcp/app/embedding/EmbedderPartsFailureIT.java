package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.adapters.http.mcp.WebSocketTransport;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RawWebSocket;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.mcp.McpDispatcher;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an agent sees over {@code /mcp} when a part the embedding service wrote fails (docs/embedding.md,
 * "Your own parts"): an answer it can read, never the exception's message, which may hold secrets.
 */
class EmbedderPartsFailureIT {
    private static final String SECRET = "jdbc:postgresql://db/orders?password=hunter2";
    private static final Pattern ERROR_ID = Pattern.compile("error id ([0-9a-f]+)");
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @RegisterExtension
    final CapturedLog serverLog = CapturedLog.of(GatewayHttpServer.class);
    @RegisterExtension
    final CapturedLog dispatcherLog = CapturedLog.of(McpDispatcher.class);
    @RegisterExtension
    final CapturedLog webSocketLog = CapturedLog.of(WebSocketTransport.class);

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

    private static AgentAuthentication throwing(Supplier<RuntimeException> exception, Supplier<Error> error) {
        return new AgentAuthentication() {
            @Override
            public AgentAuthResult authenticate(Optional<String> bearerToken) {
                if (exception != null) {
                    throw exception.get();
                }
                throw error.get();
            }

            @Override
            public boolean keysConfigured() {
                return true;
            }
        };
    }

    /** An interceptor that lets {@code initialize} through and breaks on every other message. */
    private static McpInterceptor breakingAfterInitialize(Runnable failure) {
        return (call, next) -> {
            if ("initialize".equals(call.method())) {
                return next.proceed(call);
            }
            failure.run();
            return null;
        };
    }

    private static String errorId(String text) {
        Matcher matcher = ERROR_ID.matcher(text);
        assertThat(matcher.find()).as(text).isTrue();
        return matcher.group(1);
    }

    @Test
    void anAgentAuthenticationThatThrowsAnError_answersA500JsonWithAnErrorIdTheLogCarries_notAnEmptyBody() {
        Gateway gateway = Gateway.builder().build();
        AgentAuthentication failing = throwing(null, () -> new AssertionError("directory down " + SECRET));
        try (GatewayHttpServer server = server(gateway, failing)) {
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + server.port(),
                    Map.of("Authorization", "Bearer agent-token-123"));

            HttpResponse<String> response = client.initialize();

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("json"));
            assertThat(response.body()).contains("OMCP_INTERNAL_ERROR").doesNotContain("hunter2").doesNotContain("agent-token-123");
            String errorId = errorId(response.body());
            assertThat(serverLog.errors()).anySatisfy(line -> assertThat(line).contains("errorId=" + errorId).contains("outcome=bug"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"runtime_exception", "assertion_error", "null_result"})
    void anInterceptorThatBreaksOnARequest_answersInternalErrorWithAnErrorId(String failure) {
        Gateway gateway = Gateway.builder().interceptor(breakingAfterInitialize(() -> {
            switch (failure) {
                case "runtime_exception" -> throw new IllegalStateException(SECRET);
                case "assertion_error" -> throw new AssertionError(SECRET);
                default -> { }
            }
        })).build();
        try (GatewayHttpServer server = server(gateway, gateway.agentAuthentication())) {
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + server.port());
            client.initialize();

            HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", Map.of());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonObject error = McpHttpClient.parse(McpHttpClient.lastMessage(response)).getJsonObject("error");
            assertThat(error).as(response.body()).isNotNull();
            assertThat(error.getInt("code")).isEqualTo(-32603);
            assertThat(error.getString("message")).doesNotContain("hunter2");
            String errorId = errorId(error.getString("message"));
            assertThat(dispatcherLog.errors()).anySatisfy(line -> assertThat(line).contains("errorId=" + errorId));
        }
    }

    /**
     * JSON-RPC 2.0 (section 4.1): a notification is never answered, not even with "Internal error", so
     * the client could do nothing with a 500; MCP: a notification the server took is answered 202.
     */
    @ParameterizedTest
    @ValueSource(strings = {"runtime_exception", "assertion_error", "null_result"})
    void anInterceptorThatBreaksOnANotification_answers202_andLogsTheBugWithAnErrorId(String failure) {
        Gateway gateway = Gateway.builder().interceptor(breakingAfterInitialize(() -> {
            switch (failure) {
                case "runtime_exception" -> throw new IllegalStateException(SECRET);
                case "assertion_error" -> throw new AssertionError(SECRET);
                default -> { }
            }
        })).build();
        try (GatewayHttpServer server = server(gateway, gateway.agentAuthentication())) {
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + server.port());
            client.initialize();

            HttpResponse<String> response = client.post(INITIALIZED, Map.of());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
            assertThat(response.body()).isEmpty();
            assertThat(dispatcherLog.errors()).anySatisfy(line -> assertThat(line)
                    .contains("method=\"notifications/initialized\"").contains("errorId=").contains("outcome=bug"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"runtime_exception", "assertion_error"})
    void anAgentAuthenticationThatThrowsAtAWebSocketUpgrade_closesWith1011AndAnErrorId_withoutItsMessage(String failure)
            throws IOException {
        AgentAuthentication failing = "runtime_exception".equals(failure)
                ? throwing(() -> new IllegalStateException("directory down " + SECRET), null)
                : throwing(null, () -> new AssertionError("directory down " + SECRET));
        try (GatewayHttpServer server = server(Gateway.builder().build(), failing);
                RawWebSocket socket = RawWebSocket.connect(server.port(), "/mcp/ws")) {
            Optional<RawWebSocket.Frame> frame = socket.read(Duration.ofSeconds(10));

            assertThat(frame).isPresent();
            assertThat(frame.get().opcode()).isEqualTo(RawWebSocket.CLOSE);
            assertThat(frame.get().closeCode()).isEqualTo(1011);
            assertThat(frame.get().closeReason()).doesNotContain("hunter2");
            String errorId = errorId(frame.get().closeReason());
            assertThat(webSocketLog.errors()).anySatisfy(line -> assertThat(line).contains("errorId=" + errorId));
            assertThat(server.openWebSockets()).isZero();
        }
    }
}
