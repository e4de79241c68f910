package dev.omcp.core.analysis.anomaly;

import java.util.Arrays;

/**
 * Broken-stick fits that tell a step from a ramp. Both models say "the series sat at the baseline
 * (z = 0) until change point c"; the step then jumps to a constant level, the ramp climbs linearly
 * from 0. Each model is fitted at every candidate c and scored by the sum of absolute residuals;
 * the better model names the shape and its c dates the onset. O(n^2), on at most
 * {@value AnomalyDetector#TREND_POINTS} points.
 */
final class ShapeFit {
    /** The best change point of a model and what it cost. */
    record Fit(int changeIndex, double cost, double parameter) {}

    private ShapeFit() {}

    /** Step: z = 0 before c, z = median(z[c..]) from c on. */
    static Fit step(double[] z, int n) {
        double[] prefix = absPrefix(z, n);
        double[] levels = tailMedians(z, n);
        Fit best = new Fit(0, Double.POSITIVE_INFINITY, 0);
        for (int c = 0; c < n; c++) {
            double level = levels[c];
            double cost = prefix[c];
            for (int i = c; i < n; i++) {
                cost += Math.abs(z[i] - level);
            }
            if (cost < best.cost()) {
                best = new Fit(c, cost, level);
            }
        }
        return best;
    }

    /** Ramp: z = 0 before c, z = s * (t - t[c]) from c on, s fitted by least squares, s > 0. */
    static Fit ramp(long[] t, double[] z, int n) {
        double[] prefix = absPrefix(z, n);
        Fit best = new Fit(0, Double.POSITIVE_INFINITY, 0);
        for (int c = 0; c < n - 1; c++) {
            double sxy = 0;
            double sxx = 0;
            for (int i = c + 1; i < n; i++) {
                double dt = t[i] - t[c];
                sxy += dt * z[i];
                sxx += dt * dt;
            }
            if (sxx == 0) {
                continue;
            }
            double slope = Math.max(0, sxy / sxx);
            double cost = prefix[c];
            for (int i = c; i < n; i++) {
                cost += Math.abs(z[i] - slope * (t[i] - t[c]));
            }
            if (cost < best.cost()) {
                best = new Fit(c, cost, slope);
            }
        }
        return best;
    }

    /**
     * {@code medians[c]} is the median of z[c..n): one sorted buffer, growing from the end by binary
     * insertion, instead of sorting every tail anew (which made this fit O(n^2 log n)). The buffer is in
     * {@link Double#compare} order, as {@link Arrays#sort(double[])} would leave it, so every
     * median is the one sorting the tail gives.
     */
    static double[] tailMedians(double[] z, int n) {
        double[] medians = new double[n];
        double[] sorted = new double[n];
        for (int c = n - 1, size = 0; c >= 0; c--, size++) {
            int at = Arrays.binarySearch(sorted, 0, size, z[c]);
            if (at < 0) {
                at = -at - 1;
            }
            System.arraycopy(sorted, at, sorted, at + 1, size - at);
            sorted[at] = z[c];
            medians[c] = RobustStatistics.sortedMedian(sorted, size + 1);
        }
        return medians;
    }

    /** {@code prefix[c]} is the sum of |z| over the points before c: their cost under "still at baseline". */
    private static double[] absPrefix(double[] z, int n) {
        double[] prefix = new double[n + 1];
        for (int i = 0; i < n; i++) {
            prefix[i + 1] = prefix[i] + Math.abs(z[i]);
        }
        return prefix;
    }
}
