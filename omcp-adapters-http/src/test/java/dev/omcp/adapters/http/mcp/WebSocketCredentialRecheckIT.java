package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import io.javalin.Javalin;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Streamable HTTP authenticates every request, so a revoked key (or an expired token) stops working at
 * once; a WebSocket is authenticated at its upgrade, and must not go on serving a credential that is no
 * longer accepted for as long as it stays open. Real Javalin on loopback, a 100 ms ping interval
 * standing in for 30 s, and an authentication whose accepted tokens a test changes.
 */
class WebSocketCredentialRecheckIT {
    private static final String GRANT_CHANGED =
            "the credential of this connection now grants other rights (tenant or roles); reconnect to use them";
    private final Map<String, Principal> accepted = new ConcurrentHashMap<>(Map.of("token-1", Principal.apiKey("ci", "")));
    private final AtomicInteger checks = new AtomicInteger();
    private final AgentAuthentication revocable = new AgentAuthentication() {
        @Override
        public AgentAuthResult authenticate(Optional<String> bearerToken) {
            checks.incrementAndGet();
            Principal principal = bearerToken.map(accepted::get).orElse(null);
            return principal == null ? new AgentAuthResult.Refused("the bearer token is not valid")
                    : new AgentAuthResult.Authenticated(principal);
        }

        @Override
        public boolean keysConfigured() {
            return true;
        }
    };
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.empty());
        }
    };
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        transport = WebSocketTestServer.builder(endpoint, new GatewayMetrics(Set.of("ping")))
                .authentication(revocable)
                .pingInterval(Duration.ofMillis(100))
                .pongTimeout(Duration.ofSeconds(60))
                .build();
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of("Authorization", "Bearer token-1"));
        // The socket is authenticated in the server's onConnect, which may still be running when the client's
        // handshake completes: one answered message shows it ran, so a test's change of the credential below
        // is seen by a ping round, not by the upgrade itself.
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
    }

    @AfterEach
    void stop() {
        client.close();
        transport.close();
        app.stop();
    }

    @Test
    void aSocketWhoseCredentialIsRevoked_isClosedWith1008AtTheNextPingRound() throws Exception {
        accepted.clear();

        WebSocketClient.Close close = client.awaitClose();
        assertThat(close.code()).isEqualTo(WebSocketTransport.POLICY_VIOLATION);
        assertThat(close.reason()).isEqualTo("the credential of this connection is no longer accepted; reconnect with a valid one");
    }

    @Test
    void aSocketWhoseTokenNowNamesAnotherCaller_isClosedToo() throws Exception {
        accepted.put("token-1", Principal.apiKey("someone-else", ""));

        assertThat(client.awaitClose().code()).isEqualTo(WebSocketTransport.POLICY_VIOLATION);
    }

    @Test
    void aSocketWhoseKeyMovedToAnotherTenant_isClosedWith1008_asItsOldGrantNoLongerHolds() throws Exception {
        accepted.put("token-1", Principal.apiKey("ci", "tenant-b"));

        WebSocketClient.Close close = client.awaitClose();
        assertThat(close.code()).isEqualTo(WebSocketTransport.POLICY_VIOLATION);
        assertThat(close.reason()).isEqualTo(GRANT_CHANGED);
    }

    @Test
    void aSocketWhoseCallerWasDemoted_isClosedWith1008() throws Exception {
        accepted.put("token-1", new Principal("key:ci", "ci", AuthKind.API_KEY, "", Set.of("viewer"), Optional.empty()));

        WebSocketClient.Close close = client.awaitClose();
        assertThat(close.code()).isEqualTo(WebSocketTransport.POLICY_VIOLATION);
        assertThat(close.reason()).isEqualTo(GRANT_CHANGED);
    }

    @Test
    void aSocketWhoseCallerOnlyGotANewDisplayName_staysOpen() throws Exception {
        accepted.put("token-1", new Principal("key:ci", "CI bot", AuthKind.API_KEY, "", Set.of(), Optional.empty()));
        int seen = checks.get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (checks.get() < seen + 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }

        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
        assertThat(client.closed.isDone()).isFalse();
    }

    @Test
    void aSocketWhoseCredentialStillHolds_isCheckedEachRound_andStaysOpen() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (checks.get() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(checks.get()).as("the upgrade's check and at least three rounds").isGreaterThanOrEqualTo(4);
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
        assertThat(client.closed.isDone()).isFalse();
    }
}
