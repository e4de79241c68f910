package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.query.TimeRange;
import java.time.Duration;

/**
 * What a range-query reader (Prometheus' matrix, Loki's) holds each series' samples to while it
 * reads them, so a hostile or broken backend's series still keep the promises of
 * {@link dev.omcp.sdk.query.Series}: times ascending, none repeated, none far outside the asked
 * window. The anomaly detection reads the last point as "now" and every point as inside the
 * window: one sample stamped a year ahead moved the window it judges off the real data.
 *
 * <p>A sample more than one step outside the asked window is left out while it is read
 * ({@link #admits}): a step of slack, as the connector contract allows, because a query frontend
 * that aligns queries to the step (Cortex, Mimir, Thanos, VictoriaMetrics) answers points up to a
 * step before the window's start or after its end. The reader notices a time not after the one
 * before it in the same comparison loop it reads with, and only then has {@link #ascending} sort
 * that series once; a well-behaved answer costs two comparisons a sample and nothing else. What
 * was changed is said in one line each ({@link #told}), never per sample. Not thread-safe: one
 * per answer read.
 */
public final class SampleChecks {
    private final long firstMillis;
    private final long lastMillis;
    private long outside;
    private int reordered;
    private long repeats;

    private SampleChecks(long firstMillis, long lastMillis) {
        this.firstMillis = firstMillis;
        this.lastMillis = lastMillis;
    }

    /** Admits samples from one {@code step} before {@code range} starts to one step after it ends. */
    public static SampleChecks within(TimeRange range, Duration step) {
        return new SampleChecks(range.start().minus(step).toEpochMilli(), range.end().plus(step).toEpochMilli());
    }

    /** Admits samples at any time (tests and benchmarks of a reader); order is still checked. */
    public static SampleChecks anyTime() {
        return new SampleChecks(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** Whether a sample at {@code millis} is kept; one outside the window is counted and left out. */
    public boolean admits(long millis) {
        if (millis < firstMillis || millis > lastMillis) {
            outside++;
            return false;
        }
        return true;
    }

    /**
     * Sorts the first {@code n} samples of a series by time, keeping of samples with the same time the
     * first one the backend answered, and counts the series and the repeats left out. Called only for a
     * series whose reader saw a time not after the one before it.
     *
     * @return how many samples are left, in place at the start of {@code times} and {@code values}
     */
    public int ascending(long[] times, double[] values, int n) {
        int[] order = stableOrder(times, n);
        long[] sortedTimes = new long[n];
        double[] sortedValues = new double[n];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int from = order[i];
            if (kept > 0 && times[from] == sortedTimes[kept - 1]) {
                continue; // a stable sort put the first one answered first
            }
            sortedTimes[kept] = times[from];
            sortedValues[kept] = values[from];
            kept++;
        }
        System.arraycopy(sortedTimes, 0, times, 0, kept);
        System.arraycopy(sortedValues, 0, values, 0, kept);
        reordered++;
        repeats += n - kept;
        return kept;
    }

    /**
     * The indexes of the first {@code n} times in ascending order of time, equal times in the order
     * they came: a bottom-up merge sort of primitive indexes, no boxed value per sample.
     */
    private static int[] stableOrder(long[] times, int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        int[] merged = new int[n];
        for (long width = 1; width < n; width *= 2) {
            for (long lo = 0; lo < n - width; lo += 2 * width) {
                int mid = (int) (lo + width);
                int hi = (int) Math.min(lo + 2 * width, n);
                int left = (int) lo;
                int right = mid;
                int out = (int) lo;
                while (left < mid && right < hi) {
                    // strictly less: of equal times the left one, which came first, goes first
                    merged[out++] = times[order[right]] < times[order[left]] ? order[right++] : order[left++];
                }
                while (left < mid) {
                    merged[out++] = order[left++];
                }
                while (right < hi) {
                    merged[out++] = order[right++];
                }
                System.arraycopy(merged, (int) lo, order, (int) lo, hi - (int) lo);
            }
        }
        return order;
    }

    /** {@code answer} with a line for each thing changed in it, after what the backend said itself. */
    public <T> BackendJson.Answer<T> told(BackendJson.Answer<T> answer, String backend) {
        BackendJson.Answer<T> told = answer;
        if (outside > 0) {
            told = told.withWarning(backend + " answered " + outside + " sample" + (outside == 1 ? "" : "s")
                    + " more than one step outside the asked window; they were left out");
        }
        if (reordered > 0) {
            told = told.withWarning(backend + " answered the samples of " + reordered + " series out of time order or with repeated "
                    + "times; they were sorted" + (repeats == 0 ? "" : ", and " + repeats + " repeated time" + (repeats == 1 ? "" : "s")
                    + " left out (the first sample answered for a time was kept)"));
        }
        return told;
    }
}
