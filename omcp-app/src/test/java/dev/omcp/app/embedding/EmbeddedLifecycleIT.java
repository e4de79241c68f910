package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a Java service that embeds the gateway relies on around its own life cycle: the HTTP server
 * leaves no thread that keeps the JVM from exiting, says so when it is started again after close or
 * cannot listen, stops before close() returns, names its threads for OMCP, and two gateways in one
 * JVM answer each for itself.
 */
class EmbeddedLifecycleIT {
    // Javalin logs "Failed to start Javalin" at ERROR, with no reason, before the exception that says what went wrong
    @RegisterExtension
    final CapturedLog javalinLog = CapturedLog.of(Javalin.class);

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

    /** A tool that tells the name of the thread it runs on. */
    private record ThreadName() implements Tool {
        @Override
        public ToolDefinition definition() {
            return new ToolDefinition("thread_name", "Thread name", "The thread the call runs on.",
                    Jsonp.object().add("type", "object").build(), Optional.of(Jsonp.object().add("type", "object").build()),
                    ToolAnnotations.readOnlyLocal());
        }

        @Override
        public ToolResult call(ToolCall call) {
            return ToolResult.structured(Jsonp.object().add("thread", Thread.currentThread().getName()).build());
        }
    }

    /** A tool whose call runs until the test lets it finish. */
    private record Held(CountDownLatch entered, CountDownLatch release, AtomicBoolean finished) implements Tool {
        @Override
        public ToolDefinition definition() {
            return new ToolDefinition("held", "Held", "Runs until released.", Jsonp.object().add("type", "object").build(),
                    Optional.of(Jsonp.object().add("type", "object").build()), ToolAnnotations.readOnlyLocal());
        }

        @Override
        public ToolResult call(ToolCall call) {
            entered.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            finished.set(true);
            return ToolResult.structured(Jsonp.object().add("released", true).build());
        }
    }

    private static GatewayHttpServer server(Gateway gateway) {
        return server(gateway, HttpServerSettings.loopback(0));
    }

    private static GatewayHttpServer server(Gateway gateway, HttpServerSettings settings) {
        return GatewayHttpServer.builder()
                .settings(settings)
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
    void aPortInUse_failsStartWithAJdkExceptionNamingTheAddress_andLeavesNothingRunning() throws IOException, InterruptedException {
        Set<Thread> before = nonDaemonThreads();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            GatewayHttpServer server = server(Gateway.builder().build(), HttpServerSettings.loopback(taken.getLocalPort()));

            // not Javalin's JavalinBindException: a type of the JDK the embedding service can catch without depending on Javalin
            assertThatThrownBy(server::start).isExactlyInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("127.0.0.1:" + taken.getLocalPort()).hasMessageContaining("already in use")
                    .hasMessageContaining("0 picks a free one");
            assertThat(javalinLog.errors()).as("the exception alone says it, not an ERROR line of Javalin's before it").isEmpty();
            assertThat(server.isReady()).as("a server that never listened is not ready").isFalse();
            assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("failed to start")
                    .hasMessageContaining("build a new one");
            server.close();
        }
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        Set<Thread> left = leftSince(before);
        while (!left.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(50);
            left = leftSince(before);
        }
        assertThat(left).as("non-daemon threads left by a server that could not listen").extracting(Thread::getName).isEmpty();
    }

    @Test
    void anAddressOfAnotherMachine_isNotReportedAsAPortInUse() {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine
        HttpServerSettings elsewhere = new HttpServerSettings("192.0.2.1", 0, List.of(), List.of(),
                HttpServerSettings.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30), Duration.ofSeconds(90), Duration.ofSeconds(1));
        GatewayHttpServer server = server(Gateway.builder().build(), elsewhere);

        assertThatThrownBy(server::start).isExactlyInstanceOf(UncheckedIOException.class).hasMessageContaining("192.0.2.1:0")
                .hasMessageContaining("Cannot assign requested address").hasMessageNotContaining("already in use");
        assertThat(javalinLog.errors()).isEmpty();
        server.close();
    }

    @Test
    void aToolCalledOverHttp_runsOnAThreadNamedForOmcp() {
        try (GatewayHttpServer server = server(Gateway.builder().tool(new ThreadName()).build()).start()) {
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + server.port());
            client.initialize();

            // a host service with a Jetty or Javalin of its own tells our request threads from its own in a thread dump
            assertThat(client.tool("thread_name", "{}").getString("thread")).startsWith("omcp-http");
        }
    }

    @Test
    void closeWhileAnotherThreadShutsDown_returnsOnlyOnceTheServerHasStopped() throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        GatewayHttpServer server = server(Gateway.builder().tool(new Held(entered, release, finished)).build()).start();
        McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + server.port());
        client.initialize();
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> client.tool("held", "{}"));
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("the held call started").isTrue();
        Thread shutdown = Thread.ofVirtual().start(server::shutdown);
        while (server.isReady()) {
            Thread.sleep(10);
        }
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });

        // the embedder closes the source registry next: the call still in flight must have finished by then
        server.close();

        assertThat(finished).as("the in-flight call finished before close() returned").isTrue();
        shutdown.join(Duration.ofSeconds(10));
        call.join();
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

    @Test
    void aServerBuiltWithoutItsParts_namesEveryMissingOneAndTheCallThatGivesIt() {
        assertThatThrownBy(() -> GatewayHttpServer.builder().settings(HttpServerSettings.loopback(0)).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mcp(gateway.mcp())")
                .hasMessageContaining("agentAuthentication(gateway.agentAuthentication())")
                .hasMessageContaining("description(gateway.description())");
        Gateway gateway = Gateway.builder().build();
        assertThatThrownBy(() -> GatewayHttpServer.builder().mcp(gateway.mcp()).description(gateway.description()).build())
                .isInstanceOf(IllegalStateException.class).hasMessage("the HTTP server needs the agent authentication "
                        + "(agentAuthentication(gateway.agentAuthentication())) before build()");
    }
}
