package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.mcp.WebSocketTestServer;
import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.core.gateway.Gateway;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stop while a tool call runs over a WebSocket (docs/mcp.md, Shutdown): the socket refuses new
 * requests, the call that runs gets its answer, and the socket closes with 1001 once it is answered
 * or the shutdown grace runs out, whichever comes first. A socket with nothing in flight closes at once.
 */
class WebSocketShutdownDrainIT {
    private static final String TOOL_CALL = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}";

    /** Holds the tool call until the test releases it; nothing else reaches it in these tests. */
    private final WebSocketTestServer.HoldingEndpoint endpoint =
            new WebSocketTestServer.HoldingEndpoint(body -> body.contains("\"method\":\"tools/call\""));
    private final HttpClient http = HttpClient.newHttpClient();
    private GatewayHttpServer server;

    @AfterEach
    void stop() {
        endpoint.release();
        if (server != null) {
            server.close();
        }
        http.close();
    }

    @Test
    void aToolCallRunningOnAWebSocket_isAnsweredBeforeTheSocketCloses_andARequestSentMeanwhileIsRefused() throws Exception {
        start(Duration.ofSeconds(30));
        WebSocketIT.Frames busy = new WebSocketIT.Frames();
        WebSocket busySocket = connect(busy);
        WebSocketIT.Frames idle = new WebSocketIT.Frames();
        connect(idle);
        busySocket.sendText(TOOL_CALL, true).get(10, TimeUnit.SECONDS);
        assertThat(endpoint.awaitHeld(1)).as("the tool call runs").isEqualTo(1);

        long began = System.nanoTime();
        CompletableFuture<Void> shutdown = CompletableFuture.runAsync(server::shutdown);

        assertThat(idle.closed.get(10, TimeUnit.SECONDS)).as("a socket with nothing in flight closes at once").isEqualTo(1001);
        busySocket.sendText("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}", true).get(10, TimeUnit.SECONDS);
        JsonObject refused = busy.next();
        assertThat(refused.getInt("id")).as("the refusal answers the request sent during the stop").isEqualTo(8);
        assertThat(refused.getJsonObject("error").getInt("code")).as("refused, not malformed").isEqualTo(-32002);
        assertThat(refused.getJsonObject("error").getString("message")).contains("shutting down").contains("did not run")
                .contains("reconnect");
        assertThat(busy.closed).as("the socket waits for its tool call").isNotDone();
        assertThat(shutdown).as("the stop waits for the tool call").isNotDone();

        endpoint.release();
        JsonObject answer = busy.next();
        assertThat(answer.getInt("id")).as("the tool call's answer arrives").isEqualTo(7);
        assertThat(answer.containsKey("result")).isTrue();
        assertThat(busy.closed.get(10, TimeUnit.SECONDS)).as("then the socket closes").isEqualTo(1001);
        shutdown.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - began)).as("the stop ends once the call is answered, not at the end of the grace")
                .isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aToolCallThatOutlastsTheGrace_isCutOff_andItsSocketClosesWhenTheGraceEnds() throws Exception {
        Duration grace = Duration.ofSeconds(1);
        start(grace);
        WebSocketIT.Frames busy = new WebSocketIT.Frames();
        WebSocket busySocket = connect(busy);
        busySocket.sendText(TOOL_CALL, true).get(10, TimeUnit.SECONDS);
        assertThat(endpoint.awaitHeld(1)).as("the tool call runs").isEqualTo(1);

        long began = System.nanoTime();
        CompletableFuture<Long> closedAfter = busy.closed.thenApply(code -> System.nanoTime() - began);
        server.shutdown();
        Duration took = Duration.ofNanos(System.nanoTime() - began);

        assertThat(busy.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1001);
        assertThat(Duration.ofNanos(closedAfter.get(10, TimeUnit.SECONDS))).as("the socket stayed open for the grace")
                .isGreaterThanOrEqualTo(grace.minusMillis(100));
        // the grace and the small fixed margin of Jetty's own stop
        assertThat(took).as("the stop with a tool call that never ends").isLessThan(grace.plusSeconds(3));
    }

    private void start(Duration grace) {
        Gateway gateway = Gateway.builder().version("test").build();
        HttpServerSettings settings = new HttpServerSettings("127.0.0.1", 0, List.of(), List.of(),
                HttpServerSettings.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30), Duration.ofSeconds(90), grace);
        server = GatewayHttpServer.builder()
                .settings(settings)
                .mcp(endpoint)
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .build()
                .start();
    }

    private WebSocket connect(WebSocketIT.Frames frames) throws Exception {
        return http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/mcp/ws"), frames)
                .get(10, TimeUnit.SECONDS);
    }
}
