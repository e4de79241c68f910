package dev.omcp.core.analysis.anomaly;

import dev.omcp.sdk.query.Series;
import java.util.Arrays;

/**
 * A series in the order the analysis reads it: ascending, distinct timestamps. The SDK promises that
 * order, but a connector is a plugin, and one that merges two stores' pages or appends a page it
 * fetched late breaks it: every reader that takes the first point as the oldest and the last as the
 * latest then anchors its window wrongly (detect_anomalies cut the history a seasonal baseline
 * needs and judged a long window against a flat median; query_metrics bucketed points before the
 * "first" one at a negative index). Ordering once where series enter the analysis keeps every
 * reader simple.
 */
public final class SeriesOrder {
    private SeriesOrder() {}

    /**
     * The series itself when its timestamps already ascend strictly (one pass, no copy: the common
     * case); otherwise a copy sorted by time with one point per timestamp. Of several points at one
     * timestamp the kept value is the lower middle of their finite values (or of their infinities
     * when none is finite; NaN when all are gaps): an observed value, never an average, and the same
     * whatever order the duplicates came in.
     */
    public static Series ascending(Series series) {
        for (int i = 1; i < series.size(); i++) {
            if (series.timeAt(i) <= series.timeAt(i - 1)) {
                return sorted(series);
            }
        }
        return series;
    }

    private static Series sorted(Series series) {
        int n = series.size();
        long[] t = series.epochMillis();
        double[] x = series.values();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        // by value within a timestamp too, so a group's finite values lie together: -Inf, finite, +Inf, NaN
        Arrays.sort(order, (a, b) -> t[a] != t[b] ? Long.compare(t[a], t[b]) : Double.compare(x[a], x[b]));
        long[] st = new long[n];
        double[] sx = new double[n];
        int kept = 0;
        for (int lo = 0; lo < n; ) {
            int hi = lo;
            while (hi < n && t[order[hi]] == t[order[lo]]) {
                hi++;
            }
            st[kept] = t[order[lo]];
            sx[kept++] = representative(x, order, lo, hi);
            lo = hi;
        }
        return new Series(series.labels(), Arrays.copyOf(st, kept), Arrays.copyOf(sx, kept));
    }

    /** The value kept for the points {@code order[lo..hi)}, which share a timestamp and are in {@link Double#compare} order. */
    private static double representative(double[] x, Integer[] order, int lo, int hi) {
        int negativeInfinities = 0;
        int finite = 0;
        int notNaN = 0;
        for (int k = lo; k < hi; k++) {
            double v = x[order[k]];
            negativeInfinities += v == Double.NEGATIVE_INFINITY ? 1 : 0;
            finite += Double.isFinite(v) ? 1 : 0;
            notNaN += Double.isNaN(v) ? 0 : 1;
        }
        if (finite > 0) {
            return x[order[lo + negativeInfinities + (finite - 1) / 2]];
        }
        return notNaN > 0 ? x[order[lo + (notNaN - 1) / 2]] : Double.NaN;
    }
}
