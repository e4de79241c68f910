package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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
}
