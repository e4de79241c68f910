package dev.omcp.testkit.demo.system;

import java.util.Arrays;
import java.util.Map;

/**
 * One generated series on the history's 15-second grid. Values grow as time passes; readers see a
 * consistent prefix.
 */
public final class StoredSeries {
    private final Map<String, String> labels;
    private final long origin;
    private final long step;
    private volatile double[] values = new double[1024];
    private volatile int size;

    StoredSeries(Map<String, String> labels, long origin, long step) {
        this.labels = Map.copyOf(labels);
        this.origin = origin;
        this.step = step;
    }

    /** Labels, {@code __name__} included. */
    public Map<String, String> labels() {
        return labels;
    }

    public String name() {
        return labels.get("__name__");
    }

    /** How many samples exist. */
    public int size() {
        return size;
    }

    public long timeAt(int index) {
        return origin + index * step;
    }

    public double valueAt(int index) {
        return values[index];
    }

    /** Index of the last sample at or before {@code epochMillis}, or -1. */
    public int indexAtOrBefore(long epochMillis) {
        if (epochMillis < origin) {
            return -1;
        }
        return (int) Math.min(size - 1L, (epochMillis - origin) / step);
    }

    void append(double value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[size] = value;
        size = size + 1;
    }
}
