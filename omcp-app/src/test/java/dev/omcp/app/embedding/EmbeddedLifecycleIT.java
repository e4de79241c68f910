package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a Java service that embeds the gateway relies on around its own life cycle: the HTTP server
 * leaves no thread that keeps the JVM from exiting, says so when it is started again after close,
 * and two gateways in one JVM answer each for itself.
 */
class EmbeddedLifecycleIT {

    /** A tool that tells which gateway answered. */
    private record Whoami(String gateway) implements Tool {
        @Override
        public ToolDefinition definition() {
            return new ToolDefinition("whoami", "Who am I", "Which gateway answers.", Jsonp.object().add("type", "object").build(),
                    Optional.of(Jsonp.object().add("type", "object").build()), ToolAnnotations.readOnlyLocal());
        }

        @Override
        public ToolResult call(ToolCall call) {
            return ToolResult.structured(Jsonp.object().add("gateway", gateway).build());
        }
    }

    private static GatewayHttpServer server(Gateway gateway) {
        return GatewayHttpServer.builder()
                .settings(HttpServerSettings.loopback(0))
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .build();
    }

    private static Set<Thread> nonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> !t.isDaemon() && t.isAlive()).collect(Collectors.toSet());
    }

    @Test
    void aServerBuiltOrClosed_leavesNoThreadThatKeepsTheJvmFromExiting() throws InterruptedException {
        Gateway gateway = Gateway.builder().tool(new Whoami("a")).build();
        Set<Thread> before = nonDaemonThreads();

        GatewayHttpServer neverStarted = server(gateway);
        server(gateway).start().close();
        neverStarted.close();

        // Jetty's pool threads end as the server stops; Javalin's start-up watcher (off now) slept 5 s
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        Set<Thread> left = leftSince(before);
        while (!left.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(50);
            left = leftSince(before);
        }
        assertThat(left).as("non-daemon threads left by the HTTP adapter").extracting(Thread::getName).isEmpty();
    }

    private static Set<Thread> leftSince(Set<Thread> before) {
        Set<Thread> now = nonDaemonThreads();
        now.removeAll(before);
        return now;
    }

    @Test
    void aClosedServer_startedAgain_saysItWasClosed() {
        GatewayHttpServer server = server(Gateway.builder().build()).start();
        server.close();

        assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed")
                .hasMessageContaining("build a new one");
    }

    @Test
    void twoGatewaysInOneJvm_eachServeTheirOwnToolsAndSessions() {
        Gateway a = Gateway.builder().name("gateway-a").tool(new Whoami("a")).build();
        Gateway b = Gateway.builder().name("gateway-b").tool(new Whoami("b")).build();
        try (GatewayHttpServer serverA = server(a).start(); GatewayHttpServer serverB = server(b).start()) {
            McpHttpClient clientA = new McpHttpClient("http://127.0.0.1:" + serverA.port());
            McpHttpClient clientB = new McpHttpClient("http://127.0.0.1:" + serverB.port());
            clientA.initialize();
            clientB.initialize();

            assertThat(clientA.tool("whoami", "{}").getString("gateway")).isEqualTo("a");
            assertThat(clientB.tool("whoami", "{}").getString("gateway")).isEqualTo("b");
            HttpResponse<String> foreignSession = clientB.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}",
                    Map.of("Mcp-Session-Id", clientA.sessionId()));
            assertThat(foreignSession.statusCode()).as("a session of gateway a, shown to gateway b").isEqualTo(404);
        }
    }

    @Test
    void theOpenApiDocument_carriesTheEmbeddingServicesVersion() {
        try (GatewayHttpServer server = server(Gateway.builder().name("shop-observability").version("4.2.0").build()).start()) {
            HttpResponse<String> document = Http.get("http://127.0.0.1:" + server.port() + "/api/openapi.json");

            assertThat(document.statusCode()).isEqualTo(200);
            assertThat(McpHttpClient.parse(document.body()).getJsonObject("info").getString("version")).isEqualTo("4.2.0");
        }
    }
}
