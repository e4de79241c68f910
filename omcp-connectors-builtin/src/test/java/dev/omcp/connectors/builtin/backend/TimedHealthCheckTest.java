package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.Health;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimedHealthCheckTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T12:00:00Z"));

    @Test
    void theLatency_isTheTimeFromStartToTheAnswer() {
        TimedHealthCheck check = TimedHealthCheck.start(clock);
        clock.advance(Duration.ofMillis(250));

        assertThat(check.up("Loki 3.1.0")).isEqualTo(new Health(true, "Loki 3.1.0", Duration.ofMillis(250)));
        clock.advance(Duration.ofMillis(50));
        assertThat(check.down("Loki could not be reached")).isEqualTo(new Health(false, "Loki could not be reached", Duration.ofMillis(300)));
    }

    @Test
    void aClockSetBackDuringTheCheck_readsAsNoLatency_neverANegativeOne() {
        TimedHealthCheck check = TimedHealthCheck.start(clock);
        clock.set(Instant.parse("2026-01-01T11:59:59Z"));

        assertThat(check.up("Prometheus 2.53.0").latency()).isEqualTo(Duration.ZERO);
    }
}
