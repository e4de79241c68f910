package dev.omcp.core.tools.observability;

import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import java.time.Duration;

/**
 * Log counts with every step of the window, a step without lines counted as 0. Loki, like a
 * Prometheus range query, leaves a step out when nothing matched in it, so a series of error
 * counts over an hour that had errors in 5 of its 60 minutes arrives as 5 points: its minimum,
 * mean and last value would describe only the minutes that had errors, and an agent would read
 * "1.2 errors a minute, still erroring" from a service that logged none for the last 20 minutes.
 *
 * <p>The steps are the tiles of {@code LogAggregation}'s contract: they end at
 * {@code from + step}, {@code from + 2 × step}, … {@code to}. A series with a point off that grid
 * comes from a backend that counts differently; it is left as it came rather than mixed with
 * invented zeros.
 */
final class CountTiles {
    /** More steps than any connector answers per series (they stop at 1,000); past it nothing is filled. */
    static final int MAX_STEPS = 11_000;

    private CountTiles() {}

    /**
     * {@code counted} with a point at the end of every step of {@code range}: its own where it has
     * one, 0 where it has none.
     */
    static Series complete(Series counted, TimeRange range, Duration step) {
        long stepMillis = step.toMillis();
        long windowMillis = range.length().toMillis();
        if (stepMillis <= 0 || windowMillis % stepMillis != 0 || windowMillis / stepMillis > MAX_STEPS) {
            return counted;
        }
        int steps = (int) (windowMillis / stepMillis);
        if (counted.size() == steps) {
            return counted;
        }
        long from = range.start().toEpochMilli();
        long[] times = new long[steps];
        double[] values = new double[steps];
        for (int i = 0; i < steps; i++) {
            times[i] = from + (i + 1) * stepMillis;
        }
        for (int i = 0; i < counted.size(); i++) {
            long offset = counted.timeAt(i) - from;
            if (offset <= 0 || offset % stepMillis != 0 || offset / stepMillis > steps) {
                return counted; // off the grid: not a tiled count
            }
            values[(int) (offset / stepMillis) - 1] = counted.valueAt(i);
        }
        return new Series(counted.labels(), times, values);
    }

    /** Whether {@code series} has exactly one point at the end of every step of {@code range}, as {@link #complete} makes it. */
    static boolean tiles(Series series, TimeRange range, Duration step) {
        long stepMillis = step.toMillis();
        long windowMillis = range.length().toMillis();
        if (stepMillis <= 0 || windowMillis % stepMillis != 0 || series.size() != windowMillis / stepMillis) {
            return false;
        }
        long from = range.start().toEpochMilli();
        for (int i = 0; i < series.size(); i++) {
            if (series.timeAt(i) != from + (i + 1) * stepMillis) {
                return false;
            }
        }
        return true;
    }
}
