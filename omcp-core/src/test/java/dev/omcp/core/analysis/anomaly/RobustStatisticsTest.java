package dev.omcp.core.analysis.anomaly;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sums and differences of values near the largest double (a hostile or broken backend's 1e308)
 * overflowed to infinity where the statistic itself is an ordinary number: the mean of four
 * deviations of 1e308 is 1e308, not infinity. For ordinary values every statistic is what the
 * plain formula gives, to the bit.
 */
class RobustStatisticsTest {

    @Test
    void theMeanAbsoluteDeviationOfValuesNearTheLargestDouble_isFinite_whereTheirSumIsNot() {
        double[] alternating = {1e308, -1e308, 1e308, -1e308};
        assertThat(RobustStatistics.meanAbsoluteDeviation(alternating, 4, 0)).isEqualTo(1e308);
        // one deviation beyond the largest double (2.5e308), the mean a quarter of it
        double[] oneFar = {-1.5e308, 1e308, 1e308, 1e308};
        assertThat(RobustStatistics.meanAbsoluteDeviation(oneFar, 4, 1e308)).isEqualTo(6.25e307);
        // a mean that is itself beyond the largest double is infinite, as it is
        assertThat(RobustStatistics.meanAbsoluteDeviation(new double[] {1.7e308, 1.7e308}, 2, -1.7e308)).isInfinite();
    }

    @Test
    void theMad_isFiniteWheneverTheMedianDeviationIs_evenWhereSomeDeviationsOverflow() {
        // a deviation that overflows to infinity still sorts above every finite one, so the median stays exact;
        // around its median the MAD cannot be beyond the largest double, around a center far off it can
        assertThat(RobustStatistics.mad(new double[] {1e308, 1e308, 1e308}, 3, -1e308)).isInfinite();
        assertThat(RobustStatistics.mad(new double[] {1.5e308, -1.5e308, 1e308}, 3, 0)).isEqualTo(1.5e308);
        assertThat(RobustStatistics.mad(new double[] {1.7e308, -1.7e308, 1.7e308, -1.7e308}, 4, 0)).isEqualTo(1.7e308);
    }

    @Test
    void theTheilSenSlopeAndZScoreOfARiseBeyondTheLargestDouble_areTheirOwnSize_notInfinity() {
        assertThat(RobustStatistics.theilSenSlope(new double[] {0, 20}, new double[] {-1e308, 1e308}, 2)).isEqualTo(1e307);
        assertThat(RobustStatistics.theilSenSlope(new double[] {0, 1, 2}, new double[] {1.7e308, -1.7e308, 1.7e308}, 3)).isEqualTo(0);
        assertThat(RobustStatistics.zScore(1e308, -1e308, 1e308)).isEqualTo(2.0);
        assertThat(RobustStatistics.zScore(-1.5e308, 1.5e308, 1.2533e308)).isCloseTo(-2.39, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void forOrdinaryValues_everyStatisticIsThePlainFormulasToTheBit() {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = 2 + rnd.nextInt(60);
            double[] v = new double[n];
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = Math.pow(10, rnd.nextInt(40) - 20) * rnd.nextGaussian();
                x[i] = i * 60_000.0 * (1 + rnd.nextInt(3));
            }
            double center = RobustStatistics.median(v);
            double sum = 0;
            double[] deviations = new double[n];
            for (int i = 0; i < n; i++) {
                sum += Math.abs(v[i] - center);
                deviations[i] = Math.abs(v[i] - center);
            }
            assertThat(RobustStatistics.meanAbsoluteDeviation(v, n, center)).isEqualTo(sum / n);
            assertThat(RobustStatistics.mad(v, n, center)).isEqualTo(RobustStatistics.median(deviations));
            assertThat(RobustStatistics.zScore(v[0], center, 3.5)).isEqualTo((v[0] - center) / 3.5);
            double[] slopes = new double[n * (n - 1) / 2];
            int c = 0;
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    if (x[j] != x[i]) {
                        slopes[c++] = (v[j] - v[i]) / (x[j] - x[i]);
                    }
                }
            }
            assertThat(RobustStatistics.theilSenSlope(x, v, n)).isEqualTo(RobustStatistics.median(slopes, c));
        }
    }
}
