package dev.omcp.core.analysis.anomaly;

import java.util.Arrays;

/**
 * The k-th smallest of an array's values without sorting it whole (introselect). Values are ordered
 * as {@link Arrays#sort(double[])} orders them ({@link Double#compare}: -0.0 before 0.0), so what
 * it returns is exactly what sorting and indexing would return.
 *
 * <p>Series come from backends, which may be hostile: any quickselect with a fixed pivot rule has
 * orders that drive it to quadratic time, and the detector takes medians of up to 32,640 Theil-Sen
 * slopes. So after {@code 2 log2(n)} partitions that did not finish, the remaining range is sorted
 * instead (Musser's introselect), which bounds the worst case at O(n log n).
 */
final class Selection {
    /** Below this many values a range is finished by insertion sort. */
    private static final int SMALL = 16;

    private Selection() {}

    /**
     * Reorders the first {@code n} values of {@code a} so that {@code a[k]} holds the value sorting
     * would put there, every value before {@code k} is not greater and every value after it not
     * smaller; returns {@code a[k]}.
     */
    static double select(double[] a, int n, int k) {
        return select(a, n, k, 2 * (32 - Integer.numberOfLeadingZeros(n)));
    }

    /** {@link #select(double[], int, int)} that sorts what is left after {@code partitionsLeft} partitions. */
    static double select(double[] a, int n, int k, int partitionsLeft) {
        if (k < 0 || k >= n || n > a.length) {
            throw new IllegalArgumentException("k must be in [0, n) and n at most the array's length: k=" + k + ", n=" + n);
        }
        int lo = 0;
        int hi = n - 1;
        while (hi - lo >= SMALL) {
            if (partitionsLeft-- == 0) {
                Arrays.sort(a, lo, hi + 1);
                return a[k];
            }
            double pivot = medianOfThree(a, lo, (lo + hi) >>> 1, hi);
            // Hoare partition: afterwards a[lo..j] <= pivot, a[i..hi] >= pivot and a[j+1..i-1] == pivot
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (Double.compare(a[i], pivot) < 0) {
                    i++;
                }
                while (Double.compare(a[j], pivot) > 0) {
                    j--;
                }
                if (i <= j) {
                    double swap = a[i];
                    a[i] = a[j];
                    a[j] = swap;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return a[k];
            }
        }
        insertionSort(a, lo, hi);
        return a[k];
    }

    /** Orders a[lo], a[mid], a[hi] and returns the middle one (which then sits at mid). */
    private static double medianOfThree(double[] a, int lo, int mid, int hi) {
        if (Double.compare(a[mid], a[lo]) < 0) {
            swap(a, mid, lo);
        }
        if (Double.compare(a[hi], a[lo]) < 0) {
            swap(a, hi, lo);
        }
        if (Double.compare(a[hi], a[mid]) < 0) {
            swap(a, hi, mid);
        }
        return a[mid];
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private static void insertionSort(double[] a, int lo, int hi) {
        for (int i = lo + 1; i <= hi; i++) {
            double v = a[i];
            int j = i - 1;
            while (j >= lo && Double.compare(a[j], v) > 0) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }
}
