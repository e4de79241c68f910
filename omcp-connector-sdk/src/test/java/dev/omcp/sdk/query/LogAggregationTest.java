package dev.omcp.sdk.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LogAggregationTest {
    private static final Instant END = Instant.parse("2026-03-10T12:00:00Z");

    private static LogQuery lastHour() {
        return new LogQuery("payments", TimeRange.ending(END, Duration.ofHours(1)), Optional.empty(), Optional.empty(), Map.of(), 1);
    }

    @Test
    void aStepThatDividesTheWindowIsKept() {
        assertThat(LogAggregation.tilingStep(Duration.ofMinutes(15), Duration.ofMinutes(15))).isEqualTo(Duration.ofMinutes(15));
        assertThat(LogAggregation.tilingStep(Duration.ofHours(1), Duration.ofMinutes(1))).isEqualTo(Duration.ofMinutes(1));
        assertThat(LogAggregation.tilingStep(Duration.ofDays(30), Duration.ofSeconds(2592))).isEqualTo(Duration.ofSeconds(2592));
    }

    @Test
    void anotherStepIsWidenedToTheNextOneThatTilesTheWindow() {
        // 1h / 1000 points is 3.6s: 4s divides the hour
        assertThat(LogAggregation.tilingStep(Duration.ofHours(1), Duration.ofMillis(3600))).isEqualTo(Duration.ofSeconds(4));
        assertThat(LogAggregation.tilingStep(Duration.ofHours(1), Duration.ofMinutes(7))).isEqualTo(Duration.ofSeconds(450));
        // 7d / 1000 points is 604.8s: 605s would leave 405s of the week uncounted
        assertThat(LogAggregation.tilingStep(Duration.ofDays(7), Duration.ofSeconds(605))).isEqualTo(Duration.ofSeconds(630));
        assertThat(LogAggregation.tilingStep(Duration.ofSeconds(97), Duration.ofMinutes(1))).isEqualTo(Duration.ofSeconds(97));
        assertThat(LogAggregation.tilingStep(Duration.ofMinutes(5), Duration.ZERO)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aStepLongerThanTheWindowOrAWindowOfPartSecondsIsRefused() {
        assertThatThrownBy(() -> LogAggregation.tilingStep(Duration.ofMinutes(15), Duration.ofMinutes(16)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than the window");
        assertThatThrownBy(() -> LogAggregation.tilingStep(Duration.ofMillis(1500), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole seconds");
    }

    @Test
    void countsPerStepNeedAStepThatTilesTheWindow_topkIgnoresIt() {
        assertThatThrownBy(() -> new LogAggregation(lastHour(), LogAggregation.Function.SUM, List.of(), 0, Duration.ofMinutes(7)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("divide the window");
        assertThatThrownBy(() -> new LogAggregation(lastHour(), LogAggregation.Function.COUNT_OVER_TIME, List.of(), 0, Duration.ofMillis(500)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole seconds");
        assertThat(new LogAggregation(lastHour(), LogAggregation.Function.SUM, List.of(), 0, Duration.ofMinutes(5)).step())
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(new LogAggregation(lastHour(), LogAggregation.Function.TOPK, List.of("pod"), 3, Duration.ofMinutes(7)).k()).isEqualTo(3);
    }
}
