package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CountTilesTest {
    private static final Instant TO = Instant.parse("2026-03-10T12:00:00Z");
    private static final TimeRange FIVE_MINUTES = TimeRange.ending(TO, Duration.ofMinutes(5));
    private static final long FROM = FIVE_MINUTES.start().toEpochMilli();
    private static final long MINUTE = 60_000;

    @Test
    void missingSteps_becomeZeros_atTheEndOfEachStep() {
        Series sparse = new Series(Map.of("pod", "a"), new long[] {FROM + 2 * MINUTE, FROM + 4 * MINUTE}, new double[] {3, 7});
        Series tiled = CountTiles.complete(sparse, FIVE_MINUTES, Duration.ofMinutes(1));
        assertThat(tiled.labels()).isEqualTo(Map.of("pod", "a"));
        assertThat(tiled.epochMillis()).containsExactly(FROM + MINUTE, FROM + 2 * MINUTE, FROM + 3 * MINUTE, FROM + 4 * MINUTE, FROM + 5 * MINUTE);
        assertThat(tiled.values()).containsExactly(0, 3, 0, 7, 0);
    }

    @Test
    void anEmptySeries_becomesAllZeros_andACompleteOneStaysAsItIs() {
        assertThat(CountTiles.complete(new Series(Map.of(), new long[0], new double[0]), FIVE_MINUTES, Duration.ofMinutes(1)).values())
                .containsExactly(0, 0, 0, 0, 0);
        Series whole = new Series(Map.of(), new long[] {FROM + MINUTE, FROM + 2 * MINUTE, FROM + 3 * MINUTE, FROM + 4 * MINUTE,
                FROM + 5 * MINUTE}, new double[] {1, 2, 3, 4, 5});
        assertThat(CountTiles.complete(whole, FIVE_MINUTES, Duration.ofMinutes(1))).isSameAs(whole);
    }

    @Test
    void pointsOffTheGrid_orAtTheWindowsStart_leaveTheSeriesAsItCame() {
        Series offGrid = new Series(Map.of(), new long[] {FROM + 90_000}, new double[] {2});
        assertThat(CountTiles.complete(offGrid, FIVE_MINUTES, Duration.ofMinutes(1))).isSameAs(offGrid);
        Series atStart = new Series(Map.of(), new long[] {FROM}, new double[] {2});
        assertThat(CountTiles.complete(atStart, FIVE_MINUTES, Duration.ofMinutes(1))).isSameAs(atStart);
        Series pastTheEnd = new Series(Map.of(), new long[] {FROM + 6 * MINUTE}, new double[] {2});
        assertThat(CountTiles.complete(pastTheEnd, FIVE_MINUTES, Duration.ofMinutes(1))).isSameAs(pastTheEnd);
    }

    @Test
    void aStepThatDoesNotTileTheWindow_orTooManySteps_fillNothing() {
        Series sparse = new Series(Map.of(), new long[] {FROM + 2 * MINUTE}, new double[] {3});
        assertThat(CountTiles.complete(sparse, FIVE_MINUTES, Duration.ofSeconds(70))).isSameAs(sparse);
        TimeRange aDay = TimeRange.ending(TO, Duration.ofDays(1));
        Series one = new Series(Map.of(), new long[] {TO.toEpochMilli()}, new double[] {3});
        assertThat(CountTiles.complete(one, aDay, Duration.ofSeconds(1))).isSameAs(one);
    }
}
