package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.api.BodyDeadlines;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Answers without a body (202 to a notification, 204 to DELETE and OPTIONS) name no media type:
 * Javalin's default {@code text/plain} on them announces content that is not there. Real Javalin
 * on a loopback port, the JDK client, a stub endpoint.
 */
@Timeout(30)
class StreamableHttpEmptyAnswersIT {
    private final HttpClient http = HttpClient.newHttpClient();
    private StreamableHttpTransport transport;
    private Javalin app;

    @BeforeEach
    void start() {
        WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
            @Override
            public McpReply handle(McpInbound inbound, McpOutbound outbound) {
                return new McpReply.Accepted("notifications/initialized");
            }

            @Override
            public SessionStatus checkSession(String sessionId, Principal principal) {
                return SessionStatus.ACTIVE;
            }

            @Override
            public SessionStatus endSession(String sessionId, Principal principal) {
                return SessionStatus.ACTIVE;
            }
        };
        transport = new StreamableHttpTransport(endpoint, WebSocketTestServer.ANONYMOUS, new GatewayMetrics(Set.of()),
                1024 * 1024, new BodyDeadlines(BodyDeadlines.DEFAULT_GRACE, BodyDeadlines.DEFAULT_MIN_BYTES_PER_SECOND));
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            config.routes.post("/mcp", transport::post);
            config.routes.delete("/mcp", transport::delete);
            config.routes.options("/mcp", transport::options);
        }).start();
    }

    @AfterEach
    void stop() {
        transport.close();
        app.stop();
    }

    @Test
    void aNotification_is202_withNeitherBodyNorContentType() throws Exception {
        HttpResponse<String> response = http.send(request().header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", "session-a")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
        assertThat(response.headers().firstValue("Content-Type")).isEmpty();
    }

    @Test
    void deleteAndOptions_are204_withoutContentType() throws Exception {
        HttpResponse<String> deleted = http.send(request().header("Mcp-Session-Id", "session-a").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> options = http.send(request().method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(deleted.headers().firstValue("Content-Type")).isEmpty();
        assertThat(options.statusCode()).isEqualTo(204);
        assertThat(options.headers().firstValue("Content-Type")).isEmpty();
    }

    private HttpRequest.Builder request() {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/mcp"));
    }
}
