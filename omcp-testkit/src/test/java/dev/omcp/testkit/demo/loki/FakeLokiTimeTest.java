package dev.omcp.testkit.demo.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The demo Loki reads its time parameters to the nanosecond, and a silly one is a 400, not a billion-digit number. */
class FakeLokiTimeTest {

    @Test
    void secondsWithAFraction_areReadToTheNanosecond() {
        assertThat(FakeLokiServer.nanos("1700000000.123456789", 0)).isEqualTo(1_700_000_000_123_456_789L);
        assertThat(FakeLokiServer.nanos("1.7e9", 0)).isEqualTo(1_700_000_000_000_000_000L);
        assertThat(FakeLokiServer.nanos("1700000000.1234567891", 0)).as("below a nanosecond is cut").isEqualTo(1_700_000_000_123_456_789L);
    }

    @Test
    void anExponentFarOutOfRange_isRefusedAtOnce_insteadOfComputingItsDigits() {
        // exact decimal arithmetic on 1.0e999999999 builds a number of a billion digits: minutes of CPU, then out of memory
        for (String silly : new String[] {"1.0e999999999", "1.0e-999999999", "-1.0e999999999", "1.0e300000000", "1.0e-300000000"}) {
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() -> FakeLokiServer.nanos(silly, 0))
                    .isInstanceOf(LogQlException.class).hasMessageContaining("invalid time"));
        }
    }
}
