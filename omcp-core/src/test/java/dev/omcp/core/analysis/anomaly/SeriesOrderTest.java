package dev.omcp.core.analysis.anomaly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.query.Series;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeriesOrderTest {
    private static final double NAN = Double.NaN;
    private static final double INF = Double.POSITIVE_INFINITY;

    private static Series series(long[] t, double[] x) {
        return new Series(Map.of("pod", "a"), t, x);
    }

    @Test
    void aSeriesAlreadyInOrder_isReturnedAsItIs_withoutACopy() {
        Series s = series(new long[] {1, 2, 3}, new double[] {5, NAN, 7});
        assertThat(SeriesOrder.ascending(s)).isSameAs(s);
        Series empty = series(new long[0], new double[0]);
        assertThat(SeriesOrder.ascending(empty)).isSameAs(empty);
    }

    @Test
    void aSeriesOutOfOrder_isSortedByTime_keepingEachValueWithItsTimestampAndTheLabels() {
        Series s = SeriesOrder.ascending(series(new long[] {30, 10, 20}, new double[] {3, 1, NAN}));
        assertThat(s.epochMillis()).containsExactly(10, 20, 30);
        assertThat(s.values()).containsExactly(1, NAN, 3);
        assertThat(s.labels()).isEqualTo(Map.of("pod", "a"));
    }

    @Test
    void pointsSharingATimestamp_becomeOne_whoseValueDoesNotDependOnTheirOrder() {
        // the lower middle of the finite values: an observed value, whichever order two merged sources sent them in
        Series a = SeriesOrder.ascending(series(new long[] {10, 20, 10, 10, 20}, new double[] {9, 4, 1, 5, 4}));
        Series b = SeriesOrder.ascending(series(new long[] {10, 10, 20, 10, 20}, new double[] {5, 1, 4, 9, 4}));
        assertThat(a.epochMillis()).containsExactly(10, 20);
        assertThat(a.values()).containsExactly(5, 4);
        assertThat(b).isEqualTo(a);
        // two values: the lower one, never their mean (which no source reported)
        assertThat(SeriesOrder.ascending(series(new long[] {10, 10}, new double[] {8, 2})).values()).containsExactly(2);
    }

    @Test
    void atADuplicatedTimestamp_aValueWinsOverAGap_andAnInfinityOverAGap_butAFiniteValueOverAnInfinity() {
        Series s = SeriesOrder.ascending(series(new long[] {1, 1, 2, 2, 3, 3, 4, 4},
                new double[] {NAN, 7, INF, NAN, INF, 0.5, NAN, NAN}));
        assertThat(s.epochMillis()).containsExactly(1, 2, 3, 4);
        assertThat(s.values()).containsExactly(7, INF, 0.5, NAN);
    }
}
