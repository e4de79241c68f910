package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginSeriesWindowTest {
    private static final Instant START = Instant.parse("2026-03-10T11:00:00Z");
    private static final Instant END = Instant.parse("2026-03-10T12:00:00Z");
    private static final long S = START.toEpochMilli();
    private static final long E = END.toEpochMilli();
    private final PluginSeriesWindow window = new PluginSeriesWindow(new TimeRange(START, END), Duration.ofMinutes(1));

    private static MetricResult answer(long... times) {
        return new MetricResult(List.of(new Series(Map.of(), times, new double[times.length])), "q", "job");
    }

    @Test
    void anAnswerInsideTheWindowOrWithinAStepOfIt_isTheSameInstance_andNothingIsSaid() {
        MetricResult inside = answer(S - 60_000, S, E, E + 60_000);

        assertThat(window.inside("p", inside)).isSameAs(inside);
        assertThat(window.warnings()).isEmpty();
    }

    @Test
    void pointsFartherOut_areLeftOut_andCountedOverTheWholeBatchInOneLinePerSource() {
        MetricResult kept = window.inside("p", answer(S - 60_001, S, E, E + 60_001));
        window.inside("p", answer(Long.MIN_VALUE, S, Long.MAX_VALUE));
        window.inside("q", answer(S));

        assertThat(kept.series().getFirst().epochMillis()).containsExactly(S, E);
        assertThat(window.warnings()).containsOnlyKeys("p").containsEntry("p",
                "p answered 4 points more than one step outside the asked window (of 7); they were left out");
    }

    @Test
    void whenOnlyHalfThePointsWouldFitAsSeconds_theUnitIsNotBlamed() {
        window.inside("p", answer(S / 1000, S / 1000 + 15, S, S + 15_000));

        assertThat(window.warnings().get("p")).startsWith("p answered 2 points").doesNotContain("seconds");
    }

    @Test
    void whenNearlyEveryPointWouldFitAsSeconds_theLineSaysTheConnectorLikelySendsSeconds() {
        long[] times = new long[10];
        for (int i = 0; i < 9; i++) {
            times[i] = S / 1000 + i * 15;
        }
        times[9] = S; // one point in milliseconds among nine in seconds
        window.inside("p", answer(times));

        assertThat(window.warnings().get("p")).startsWith("p answered 9 points").endsWith(
                "Read as seconds their times fall inside it: the connector likely sends seconds in Series.epochMillis, which holds "
                        + "milliseconds");
    }

    @Test
    void aSeriesWithEveryPointOutside_staysAsAnEmptySeries() {
        MetricResult kept = window.inside("p", answer(1, 2, 3));

        assertThat(kept.series()).singleElement().satisfies(s -> assertThat(s.size()).isZero());
    }
}
