package dev.omcp.sdk.query;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * One labelled time series: parallel arrays of timestamps and values, sorted by time.
 *
 * <p>Arrays rather than a list of sample objects: a day of 15-second samples is 5760 points per
 * series, and tools compute over thousands of series.
 *
 * @param labels the series' labels, for example {@code {pod="api-7d9f", instance="10.0.0.5:8080"}}
 * @param epochMillis sample timestamps, ascending
 * @param values sample values; {@code NaN} where the backend reported none
 */
public record Series(Map<String, String> labels, long[] epochMillis, double[] values) {
    public Series {
        labels = Map.copyOf(labels);
        Objects.requireNonNull(epochMillis, "epochMillis");
        Objects.requireNonNull(values, "values");
        if (epochMillis.length != values.length) {
            throw new IllegalArgumentException("a series needs as many timestamps (" + epochMillis.length
                    + ") as values (" + values.length + ")");
        }
        epochMillis = epochMillis.clone();
        values = values.clone();
    }

    public int size() {
        return values.length;
    }

    /** A copy of the timestamps (the record keeps its own array safe from callers). */
    @Override
    public long[] epochMillis() {
        return epochMillis.clone();
    }

    /** A copy of the values. */
    @Override
    public double[] values() {
        return values.clone();
    }

    /** The value at {@code index} without copying the array. */
    public double valueAt(int index) {
        return values[index];
    }

    /** The timestamp at {@code index} without copying the array. */
    public long timeAt(int index) {
        return epochMillis[index];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Series s && s.labels.equals(labels) && Arrays.equals(s.epochMillis, epochMillis)
                && Arrays.equals(s.values, values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(labels, Arrays.hashCode(epochMillis), Arrays.hashCode(values));
    }

    @Override
    public String toString() {
        return "Series[" + labels + ", " + values.length + " samples]";
    }
}
