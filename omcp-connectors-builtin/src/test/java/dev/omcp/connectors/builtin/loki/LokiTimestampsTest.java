package dev.omcp.connectors.builtin.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Loki's nanosecond timestamps, read on the fast path (a long) and the exact one (beyond a long). */
class LokiTimestampsTest {

    @Test
    void nanosecondTextBecomesTheExactInstant() throws ConnectorException {
        assertThat(LokiConnector.instantOfNanos("1795320000123456789")).isEqualTo(Instant.ofEpochSecond(1795320000L, 123456789));
        assertThat(LokiConnector.instantOfNanos("0")).isEqualTo(Instant.EPOCH);
        assertThat(LokiConnector.instantOfNanos("999999999")).isEqualTo(Instant.ofEpochSecond(0, 999999999));
    }

    @Test
    void negativeTimestampsLandBeforeTheEpochLikeTheExactPath() throws ConnectorException {
        assertThat(LokiConnector.instantOfNanos("-1500000000")).isEqualTo(Instant.ofEpochSecond(-1, -500000000));
    }

    @Test
    void timestampsBeyondALongAreStillReadExactly() throws ConnectorException {
        // 2262-04-11 and later no longer fit a long of nanoseconds
        assertThat(LokiConnector.instantOfNanos("9300000000000000001")).isEqualTo(Instant.ofEpochSecond(9300000000L, 1));
    }

    @Test
    void textThatIsNotWholeNanosecondsIsABadResponse() {
        for (String bad : new String[] {"", "abc", "1.5", "12e", "1795320000.5e9x"}) {
            assertThatThrownBy(() -> LokiConnector.instantOfNanos(bad)).isInstanceOf(ConnectorException.class)
                    .hasMessageContaining("not nanoseconds");
        }
    }
}
