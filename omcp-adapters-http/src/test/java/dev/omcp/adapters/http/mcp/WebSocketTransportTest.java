package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The parts of the WebSocket transport that need no socket. */
class WebSocketTransportTest {
    /** Never reached: these transports serve no socket. */
    private static final WebSocketTestServer.StubEndpoint STUB = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            throw new AssertionError("no message reaches a transport that serves no socket");
        }
    };

    @Test
    void theCloseReasonStatesTheLimitInUnitsAnOperatorReads() {
        assertThat(WebSocketTransport.describe(Duration.ofSeconds(90))).isEqualTo("90 s");
        assertThat(WebSocketTransport.describe(Duration.ofMillis(600))).isEqualTo("600 ms");
        assertThat(WebSocketTransport.describe(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    }

    @Test
    void theNotReadingCloseReasonStatesTheBoundInUnitsAnOperatorReads() {
        assertThat(WebSocketTransport.describeBytes(WebSocketTransport.DEFAULT_MAX_UNSENT_BYTES)).isEqualTo("16 MiB");
        assertThat(WebSocketTransport.describeBytes(4000)).isEqualTo("4000 bytes");
    }

    @Test
    void theCloseReasonsOfTheNewBounds_fitTheLimitOfRfc6455_evenAtTheirLargestValues() {
        // a close reason may hold at most 123 bytes; Jetty refuses a longer one
        assertThat(WebSocketTransport.tooManySocketsReason(1_000_000).getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(123);
        assertThat(WebSocketTransport.noInitializeReason(Duration.ofMillis(123_456_789)).getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(123);
        assertThat(WebSocketTransport.noInitializeReason(WebSocketTransport.DEFAULT_INITIALIZE_DEADLINE))
                .isEqualTo("initialize not sent within 30 s of connecting; send initialize first, then reconnect");
    }

    @Test
    void aBoundOfNoSocketsPerCredential_orNoTimeToInitialize_isRefusedWithTheValue() {
        GatewayMetrics metrics = new GatewayMetrics(Set.of());
        assertThatThrownBy(() -> WebSocketTestServer.builder(STUB, metrics).maxSocketsPerCredential(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the bound of WebSockets per credential must be at least 1, got 0");
        assertThatThrownBy(() -> WebSocketTestServer.builder(STUB, metrics).initializeDeadline(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the WebSocket initialize deadline must be positive, got PT0S");
        assertThatThrownBy(() -> WebSocketTestServer.builder(STUB, metrics).maxMessageBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the largest WebSocket message must be at least 1 byte, got 0");
    }

    @Test
    void aTransportWithoutItsRequiredParts_namesEveryOneMissing() {
        assertThatThrownBy(() -> WebSocketTransport.builder().metrics(new GatewayMetrics(Set.of())).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the WebSocket transport needs the MCP endpoint (endpoint(gateway.mcp())), the agent authentication "
                        + "(authentication(gateway.agentAuthentication())) before build()");
    }

    @Test
    void aPongTimeoutNoLongerThanThePingInterval_isRefusedWithBoth() {
        assertThatThrownBy(() -> WebSocketTestServer.builder(STUB, new GatewayMetrics(Set.of()))
                .pingInterval(Duration.ofSeconds(30)).pongTimeout(Duration.ofSeconds(30)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the WebSocket pong timeout (PT30S) must be longer than the ping interval (PT30S)");
    }

    @Test
    void theGrantOfASocket_isItsCallerTenantRolesAndKindOfProof_notItsDisplayName() {
        Principal opened = new Principal("user:alice", "Alice", AuthKind.SESSION, "t1", Set.of("operator"), Optional.empty());

        assertThat(WebSocketTransport.sameGrant(opened, opened)).isTrue();
        assertThat(WebSocketTransport.sameGrant(opened, withName(opened, "Alice B."))).isTrue();
        assertThat(WebSocketTransport.sameGrant(opened,
                new Principal("user:alice", "Alice", AuthKind.SESSION, "t2", Set.of("operator"), Optional.empty()))).isFalse();
        assertThat(WebSocketTransport.sameGrant(opened,
                new Principal("user:alice", "Alice", AuthKind.SESSION, "t1", Set.of("viewer"), Optional.empty()))).isFalse();
        assertThat(WebSocketTransport.sameGrant(opened,
                new Principal("user:alice", "Alice", AuthKind.SESSION, "t1", Set.of("operator", "admin"), Optional.empty()))).isFalse();
        assertThat(WebSocketTransport.sameGrant(opened,
                new Principal("user:mallory", "Alice", AuthKind.SESSION, "t1", Set.of("operator"), Optional.empty()))).isFalse();
    }

    @Test
    void aKeyWhoseToolOrSourceListChanged_noLongerHasTheGrantOfItsSocket() {
        Principal opened = Principal.apiKey("ci", "", AllowLists.none().withTools(List.of("list_sources")));

        assertThat(WebSocketTransport.sameGrant(opened, Principal.apiKey("ci", "", AllowLists.none().withTools(List.of("list_sources")))))
                .isTrue();
        assertThat(WebSocketTransport.sameGrant(opened, Principal.apiKey("ci", ""))).as("the list was lifted").isFalse();
        assertThat(WebSocketTransport.sameGrant(opened, Principal.apiKey("ci", "", opened.allowLists().withSources(List.of("prom")))))
                .as("a source list was added").isFalse();
    }

    @Test
    void theReasonOfAFailure_quotesNoUrl_soNoStoresPasswordReachesTheLog() {
        String reason = WebSocketTransport.reasonOf(new IllegalStateException("cannot reach redis://omcp:s3cret@cache:6379/0 \"now\""));

        assertThat(reason).doesNotContain("s3cret").contains("<url>").contains("\\\"now\\\"");
        assertThat(WebSocketTransport.reasonOf(new IllegalStateException())).isEqualTo("(none)");
    }

    private static Principal withName(Principal principal, String name) {
        return new Principal(principal.id(), name, principal.authKind(), principal.tenant(), principal.roles(), principal.sessionId());
    }
}
