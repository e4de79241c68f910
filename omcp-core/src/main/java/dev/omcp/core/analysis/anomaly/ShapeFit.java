package dev.omcp.core.analysis.anomaly;

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
        Fit best = new Fit(0, Double.POSITIVE_INFINITY, 0);
        for (int c = 0; c < n; c++) {
            double[] tail = new double[n - c];
            System.arraycopy(z, c, tail, 0, n - c);
            double level = RobustStatistics.median(tail);
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

    /** {@code prefix[c]} is the sum of |z| over the points before c: their cost under "still at baseline". */
    private static double[] absPrefix(double[] z, int n) {
        double[] prefix = new double[n + 1];
        for (int i = 0; i < n; i++) {
            prefix[i + 1] = prefix[i] + Math.abs(z[i]);
        }
        return prefix;
    }
}
