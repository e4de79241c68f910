package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {
    @Test
    void readsEveryUnit() {
        assertThat(Durations.parse("30s")).contains(Duration.ofSeconds(30));
        assertThat(Durations.parse("15m")).contains(Duration.ofMinutes(15));
        assertThat(Durations.parse("1h")).contains(Duration.ofHours(1));
        assertThat(Durations.parse("7d")).contains(Duration.ofDays(7));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "15", "0s", "05m", "-5m", "1w", "1.5h", "15m ", " 15m", "123456s", "15M", "15mm"})
    void refusesWhatIsNotADuration(String text) {
        assertThat(Durations.parse(text)).isEmpty();
    }

    @Test
    void refusesNothingAndWindowsLongerThanThirtyDays() {
        assertThat(Durations.parse(null)).isEmpty();
        assertThat(Durations.parse("30d")).contains(Duration.ofDays(30));
        assertThat(Durations.parse("31d")).isEmpty();
    }

    @Test
    void formatsWithTheLargestWholeUnit() {
        assertThat(Durations.format(Duration.ofDays(2))).isEqualTo("2d");
        assertThat(Durations.format(Duration.ofHours(3))).isEqualTo("3h");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(Durations.format(Duration.ofSeconds(45))).isEqualTo("45s");
    }
}
