package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One credential may hold only so many WebSockets at once: the next upgrade is closed with 1013
 * (try again later) and a reason naming the bound, other credentials are unaffected, and a closed
 * socket gives its place back. Real Javalin on a loopback port and the JDK client.
 */
class WebSocketSocketsPerCredentialIT {
    private static final int LIMIT = 2;

    /** The bearer token names the key: {@code Bearer a} is the principal {@code key:a}. */
    private static final AgentAuthentication KEYS = new AgentAuthentication() {
        @Override
        public AgentAuthResult authenticate(Optional<String> bearerToken) {
            return bearerToken.<AgentAuthResult>map(token -> new AgentAuthResult.Authenticated(Principal.apiKey(token, "")))
                    .orElseGet(() -> new AgentAuthResult.Refused("a token is required"));
        }

        @Override
        public boolean keysConfigured() {
            return true;
        }
    };

    private final McpEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.empty());
        }
    };
    private final List<WebSocketClient> clients = new ArrayList<>();
    private WebSocketTransport transport;
    private Javalin app;

    @BeforeEach
    void start() {
        transport = WebSocketTransport.builder()
                .endpoint(endpoint)
                .authentication(KEYS)
                .metrics(new GatewayMetrics(Set.of("ping")))
                .maxSocketsPerCredential(LIMIT)
                .build();
        app = WebSocketTestServer.start(transport);
    }

    @AfterEach
    void stop() {
        clients.forEach(WebSocketClient::close);
        transport.close();
        app.stop();
    }

    private WebSocketClient connect(String key) throws Exception {
        WebSocketClient client = WebSocketClient.connect(app.port(), Map.of("Authorization", "Bearer " + key));
        clients.add(client);
        return client;
    }

    @Test
    void anUpgradeBeyondTheBound_isClosedWith1013NamingIt_otherCredentialsAreServed_andAClosedSocketFreesItsPlace() throws Exception {
        WebSocketClient first = connect("a");
        WebSocketClient second = connect("a");
        awaitHeld("a", LIMIT);

        WebSocketClient third = connect("a");
        WebSocketClient.Close refused = third.awaitClose();
        assertThat(refused.code()).as("1013: try again later").isEqualTo(1013);
        assertThat(refused.reason())
                .isEqualTo("too many WebSockets: this credential holds 2 open, the most it may; close one, then try again");
        assertThat(transport.openConnections(Principal.apiKey("a", ""))).as("the refused socket took no place").isEqualTo(LIMIT);

        // the sockets that were admitted still serve
        first.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(first.nextText()).contains("\"result\"");
        assertThat(second.closed).isNotDone();

        WebSocketClient other = connect("b");
        other.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(other.nextText()).as("another credential is not affected").contains("\"result\"");

        first.socket.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        awaitHeld("a", LIMIT - 1);
        WebSocketClient again = connect("a");
        again.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(again.nextText()).as("the place a closed socket gave back is taken again").contains("\"result\"");
        awaitHeld("a", LIMIT);
    }

    private void awaitHeld(String key, int expected) throws InterruptedException {
        Principal principal = Principal.apiKey(key, "");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (transport.openConnections(principal) != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(transport.openConnections(principal)).as("sockets held by %s", key).isEqualTo(expected);
    }
}
