package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The parts of the WebSocket transport that need no socket. */
class WebSocketTransportTest {

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
        assertThatThrownBy(() -> new WebSocketTransport(null, WebSocketTestServer.ANONYMOUS, metrics, 1024, Duration.ofSeconds(30),
                Duration.ofSeconds(90), 0, Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the bound of WebSockets per credential must be at least 1, got 0");
        assertThatThrownBy(() -> new WebSocketTransport(null, WebSocketTestServer.ANONYMOUS, metrics, 1024, Duration.ofSeconds(30),
                Duration.ofSeconds(90), WebSocketTransport.DEFAULT_MAX_UNSENT_BYTES, Duration.ZERO, 1, Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the WebSocket initialize deadline must be positive, got PT0S");
    }
}
