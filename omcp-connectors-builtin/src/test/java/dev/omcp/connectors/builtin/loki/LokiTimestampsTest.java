package dev.omcp.connectors.builtin.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.sdk.connector.ConnectorException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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

    @Test
    void aSignOrDigitsOnlyJavaReads_areRefused_asLokiWritesTimestampsWithAsciiDigitsAndAMinusAtMost() {
        // Long.parseLong took each: a plus sign, Arabic-Indic and fullwidth digits (read as 15 and 12 nanoseconds)
        for (String bad : new String[] {"+1500000000", "\u0661\u0665", "\uff11\uff12", "+99999999999999999999", "-", "+"}) {
            assertThatThrownBy(() -> LokiConnector.instantOfNanos(bad)).as(bad).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE)).hasMessageContaining("not nanoseconds");
        }
    }

    @Test
    void anExponentSpelling_isRefusedAtOnce_insteadOfExpandedToMillionsOfDigits() {
        // nine bytes of a hostile answer once cost a minute and a half of CPU, per line, beyond any deadline
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
            for (String bad : new String[] {"1e9999999", "1E+999999", "-1e999999", "1e-99999"}) {
                assertThatThrownBy(() -> LokiConnector.instantOfNanos(bad)).as(bad).isInstanceOf(ConnectorException.class)
                        .hasMessageContaining("not nanoseconds");
            }
        });
    }

    @Test
    void aTimePastTheLatestInstant_orMegabytesOfDigits_isABadResponse_notAnUncheckedException() throws ConnectorException {
        // 26 digits: fits the digit bound but not an Instant (year 3 billion); 27 and 200000 digits: past the bound
        for (String far : new String[] {"99999999999999999999999999", "-99999999999999999999999999", "1" + "0".repeat(26),
                "9".repeat(200_000)}) {
            assertThatThrownBy(() -> LokiConnector.instantOfNanos(far)).as(far.substring(0, 12))
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessageContaining("timestamp out of range");
        }
        // the latest representable times still read
        assertThat(LokiConnector.instantOfNanos("31556889864403199999999999")).isEqualTo(Instant.MAX);
        byte[] answer = """
                {"status":"success","data":{"resultType":"streams","result":[
                  {"stream":{"app":"api"},"values":[["100000000000000000000000000","far future"]]}]}}
                """.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LokiStreams.read(answer)).isInstanceOfSatisfying(ConnectorException.class,
                e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE));
    }
}
