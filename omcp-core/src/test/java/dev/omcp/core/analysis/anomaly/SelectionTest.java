package dev.omcp.core.analysis.anomaly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Selection and the medians built on it must give, to the bit, what sorting gives: the detector's
 * verdicts, scores and the backtest's figures were measured with sorted medians.
 */
class SelectionTest {
    private static final double[] AWKWARD = {0.0, -0.0, 1e-300, -1e-300, Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.MIN_VALUE, 1.0, 1.0, 2.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};

    @Test
    void select_returnsWhatSortingPutsAtEveryIndex_forRandomArraysWithTiesAndSignedZeros() {
        Random rnd = new Random(11);
        for (int round = 0; round < 1_000; round++) {
            double[] values = randomValues(rnd, 1 + rnd.nextInt(300));
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            int k = rnd.nextInt(values.length);
            double[] work = values.clone();
            double kth = Selection.select(work, work.length, k);
            assertThat(Double.doubleToRawLongBits(kth)).as("k=%d of %s", k, Arrays.toString(values))
                    .isEqualTo(Double.doubleToRawLongBits(sorted[k]));
            int misplaced = 0;
            for (int i = 0; i < work.length; i++) {
                int side = Double.compare(work[i], kth);
                misplaced += (i < k ? side <= 0 : i > k ? side >= 0 : side == 0) ? 0 : 1;
            }
            assertThat(misplaced).as("values on the wrong side of index %d", k).isZero();
            double[] reordered = work.clone();
            Arrays.sort(reordered);
            assertThat(reordered).as("selection only reorders").isEqualTo(sorted);
        }
    }

    @Test
    void median_andMad_equalTheSortedDefinition_toTheBit() {
        Random rnd = new Random(12);
        for (int round = 0; round < 1_000; round++) {
            int n = 1 + rnd.nextInt(300);
            double[] values = randomValues(rnd, n + rnd.nextInt(3));
            double[] before = values.clone();
            double median = RobustStatistics.median(values, n);
            assertThat(bits(median)).as("median of %s", Arrays.toString(values)).isEqualTo(bits(sortedMedian(values, n)));
            double center = rnd.nextBoolean() ? median : rnd.nextGaussian();
            double[] deviations = new double[n];
            for (int i = 0; i < n; i++) {
                deviations[i] = Math.abs(values[i] - center);
            }
            assertThat(bits(RobustStatistics.mad(values, n, center))).isEqualTo(bits(sortedMedian(deviations, n)));
            assertThat(values).as("the caller's array is left alone").isEqualTo(before);
        }
        assertThat(RobustStatistics.median(new double[0])).isNaN();
        assertThat(RobustStatistics.mad(new double[] {1}, 0, 0)).isNaN();
    }

    @Test
    void select_isRightOnStructuredOrders_andWhenItFallsBackToSortingAfterAnyNumberOfPartitions() {
        int n = 32_640; // the most Theil-Sen slopes the detector takes a median of
        double[][] orders = {ascending(n), descending(n), organPipe(n), allEqual(n), sawtooth(n), interleaved(n)};
        for (double[] order : orders) {
            double[] sorted = order.clone();
            Arrays.sort(sorted);
            for (int k : new int[] {0, n / 2 - 1, n / 2, n - 1}) {
                assertThat(Selection.select(order.clone(), n, k)).isEqualTo(sorted[k]);
                // the bound on partitions is what keeps a crafted order from making selection quadratic;
                // the sort it falls back to must give the same answer wherever it takes over
                for (int budget = 0; budget <= 3; budget++) {
                    double[] work = order.clone();
                    assertThat(Selection.select(work, n, k, budget)).isEqualTo(sorted[k]);
                    double largestBefore = Double.NEGATIVE_INFINITY;
                    for (int i = 0; i < k; i++) {
                        largestBefore = Math.max(largestBefore, work[i]);
                    }
                    assertThat(largestBefore).isLessThanOrEqualTo(sorted[k]);
                }
            }
        }
    }

    @Test
    void select_refusesAnIndexOutsideTheValues() {
        assertThatThrownBy(() -> Selection.select(new double[3], 3, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k=3, n=3");
        assertThatThrownBy(() -> Selection.select(new double[3], 4, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Selection.select(new double[0], 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tailMedians_equalTheMedianOfEveryTailSortedAnew() {
        Random rnd = new Random(13);
        for (int round = 0; round < 100; round++) {
            int n = 1 + rnd.nextInt(260);
            double[] z = randomValues(rnd, n);
            double[] medians = ShapeFit.tailMedians(z, n);
            for (int c = 0; c < n; c++) {
                double[] tail = Arrays.copyOfRange(z, c, n);
                assertThat(bits(medians[c])).as("tail from %d", c).isEqualTo(bits(sortedMedian(tail, tail.length)));
            }
        }
    }

    private static double sortedMedian(double[] values, int n) {
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return RobustStatistics.sortedMedian(sorted, n);
    }

    private static long bits(double v) {
        return Double.doubleToRawLongBits(v);
    }

    /** Gaussian values, heavy ties (rounded values, repeated constants) and the awkward ones, finite or not. */
    private static double[] randomValues(Random rnd, int n) {
        double[] v = new double[n];
        int style = rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
            v[i] = switch (style) {
                case 0 -> rnd.nextGaussian() * 100;
                case 1 -> Math.round(rnd.nextGaussian() * 3);
                case 2 -> AWKWARD[rnd.nextInt(AWKWARD.length)];
                default -> rnd.nextInt(10) == 0 ? -0.0 : rnd.nextInt(3) == 0 ? 0.0 : rnd.nextDouble();
            };
        }
        return v;
    }

    private static double[] ascending(int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = i;
        }
        return v;
    }

    private static double[] descending(int n) {
        double[] v = ascending(n);
        for (int i = 0; i < n; i++) {
            v[i] = n - i;
        }
        return v;
    }

    private static double[] organPipe(int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = Math.min(i, n - i);
        }
        return v;
    }

    private static double[] allEqual(int n) {
        double[] v = new double[n];
        Arrays.fill(v, 7);
        return v;
    }

    private static double[] sawtooth(int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = i % 17;
        }
        return v;
    }

    /** Odd values ascending in the first half, even ones in the second. */
    private static double[] interleaved(int n) {
        int half = n / 2;
        double[] v = new double[n];
        for (int i = 0; i < half; i++) {
            v[i] = 2 * i + 1;
            v[half + i] = 2 * i;
        }
        return v;
    }
}
