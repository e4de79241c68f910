package dev.omcp.core.analysis.anomaly;

import java.util.Arrays;

/**
 * Outlier-resistant statistics the detectors are built from. Every method ignores nothing and
 * checks nothing about NaN: callers pass finite values only (the detector drops gaps first).
 * Differences and sums of finite values near the largest double do not overflow where the
 * statistic itself is finite; for ordinary values each is the plain formula's result, to the bit.
 *
 * <p>All methods work on a copy of their input; the caller's arrays are never modified. Medians are
 * found by selection, not by sorting (the detector takes dozens per series, and sorting was half its
 * time: docs/benchmarks.md, "The detector's medians"); the value is the one sorting gives, to the bit.
 */
public final class RobustStatistics {
    /** Multiplier that makes the MAD a consistent estimator of the standard deviation of normal data. */
    public static final double MAD_TO_SIGMA = 1.4826;
    /** Multiplier that makes the mean absolute deviation consistent for normal data (sqrt(pi/2)). */
    public static final double MEAN_ABS_DEV_TO_SIGMA = 1.2533;

    private RobustStatistics() {}

    /** The median of the first {@code n} values; NaN when {@code n == 0}. */
    public static double median(double[] values, int n) {
        if (n == 0) {
            return Double.NaN;
        }
        return selectMedian(Arrays.copyOf(values, n), n);
    }

    /** The median of all values; NaN for an empty array. */
    public static double median(double[] values) {
        return median(values, values.length);
    }

    static double sortedMedian(double[] sorted, int n) {
        int mid = n >>> 1;
        return (n & 1) == 1 ? sorted[mid] : midpoint(sorted[mid - 1], sorted[mid]);
    }

    /**
     * The mean of two values, as {@code (a + b) / 2} gives it, except where that sum overflows: two
     * values beyond half the largest double (a backend's 1.7e308) would otherwise have an infinite
     * median, which read as a latency above the largest histogram bucket. Halving first is exact for
     * such values; an infinite input still gives what the sum gives.
     */
    public static double midpoint(double a, double b) {
        double sum = a + b;
        return Double.isInfinite(sum) && Double.isFinite(a) && Double.isFinite(b) ? a / 2 + b / 2 : sum / 2.0;
    }

    /**
     * The median of the first {@code n > 0} values of {@code work}, which it reorders. Equal to
     * {@link #sortedMedian} of the sorted values in {@link Double#compare} order (the order
     * {@link Arrays#sort(double[])} uses, so -0.0 before 0.0), in linear expected time.
     */
    static double selectMedian(double[] work, int n) {
        int mid = n >>> 1;
        double upper = Selection.select(work, n, mid);
        if ((n & 1) == 1) {
            return upper;
        }
        // selection left the mid smallest values before index mid: the largest of them is the lower middle
        double lower = work[0];
        for (int i = 1; i < mid; i++) {
            if (Double.compare(work[i], lower) > 0) {
                lower = work[i];
            }
        }
        return midpoint(lower, upper);
    }

    /** The median absolute deviation of the first {@code n} values around {@code center}. */
    public static double mad(double[] values, int n, double center) {
        if (n == 0) {
            return Double.NaN;
        }
        double[] deviations = new double[n];
        for (int i = 0; i < n; i++) {
            deviations[i] = Math.abs(values[i] - center);
        }
        return selectMedian(deviations, n);
    }

    /**
     * How many {@code scale}s {@code x} lies from {@code center}: {@code (x - center) / scale}, except
     * where the difference of two finite values overflows (1.5e308 against -1.5e308, a hostile or
     * broken backend): then both are halved first, which is exact for such values, so 3e308 in units
     * of 1.25e308 is 2.4, not infinity.
     */
    public static double zScore(double x, double center, double scale) {
        double d = x - center;
        if (Double.isInfinite(d) && Double.isFinite(x) && Double.isFinite(center)) {
            return (x / 2 - center / 2) / scale * 2;
        }
        return d / scale;
    }

    /**
     * The mean absolute deviation of the first {@code n} values around {@code center}. The plain
     * sum, except where finite values near the largest double overflow it (four deviations of 1e308
     * have a mean of 1e308, and their sum is infinite): then every deviation is taken of halved values
     * and divided by {@code n} before it is added, so no partial sum exceeds the largest double. For
     * any sum that stays finite the result is the plain formula's, to the bit.
     */
    public static double meanAbsoluteDeviation(double[] values, int n, double center) {
        if (n == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += Math.abs(values[i] - center);
        }
        if (Double.isInfinite(sum) && Double.isFinite(center) && allFinite(values, n)) {
            double halves = 0;
            for (int i = 0; i < n; i++) {
                halves += Math.abs(values[i] / 2 - center / 2) / n;
            }
            return halves * 2;
        }
        return sum / n;
    }

    private static boolean allFinite(double[] values, int n) {
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(values[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The Theil-Sen slope: the median of the slopes of all pairs of points with distinct x. Robust
     * to up to about 29 % outliers. O(n^2) pairs, so callers bound {@code n} (the detector
     * aggregates long series to at most {@value AnomalyDetector#TREND_POINTS} points first).
     *
     * @return the slope in units of y per unit of x; NaN when fewer than two distinct x exist
     */
    public static double theilSenSlope(double[] x, double[] y, int n) {
        int pairs = n * (n - 1) / 2;
        double[] slopes = new double[Math.max(pairs, 0)];
        int count = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double dx = x[j] - x[i];
                if (dx != 0) {
                    double dy = y[j] - y[i];
                    // a rise between finite values beyond the largest double (-1e308 to 1e308) is halved first, exactly
                    slopes[count++] = Double.isInfinite(dy) && Double.isFinite(y[i]) && Double.isFinite(y[j])
                            ? (y[j] / 2 - y[i] / 2) / dx * 2 : dy / dx;
                }
            }
        }
        return median(slopes, count);
    }

    /**
     * The Mann-Kendall trend statistic as a standard normal z score (with continuity and tie
     * correction): large positive values mean a monotonic increase in the order given, large
     * negative ones a decrease. About 3 means a trend that noise produces less than once in 700.
     *
     * @return z; 0 when fewer than three values or every value is equal
     */
    public static double mannKendallZ(double[] y, int n) {
        if (n < 3) {
            return 0;
        }
        long s = 0;
        for (int i = 0; i < n; i++) {
            double yi = y[i];
            for (int j = i + 1; j < n; j++) {
                double d = y[j] - yi;
                s += d > 0 ? 1 : d < 0 ? -1 : 0;
            }
        }
        double variance = n * (n - 1.0) * (2.0 * n + 5.0);
        double[] sorted = Arrays.copyOf(y, n);
        Arrays.sort(sorted);
        int run = 1;
        for (int i = 1; i <= n; i++) {
            if (i < n && sorted[i] == sorted[i - 1]) {
                run++;
            } else {
                if (run > 1) {
                    variance -= run * (run - 1.0) * (2.0 * run + 5.0);
                }
                run = 1;
            }
        }
        variance /= 18.0;
        if (variance <= 0 || s == 0) {
            return 0;
        }
        double corrected = s > 0 ? s - 1 : s + 1;
        return corrected / Math.sqrt(variance);
    }
}
