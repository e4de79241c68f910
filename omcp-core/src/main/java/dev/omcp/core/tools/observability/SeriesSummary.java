package dev.omcp.core.tools.observability;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Series;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * One series as numbers rather than a haystack: how many points, their min, max, mean and latest
 * value, and the values averaged into at most {@code maxPoints} equal time buckets (so the shape
 * survives while the size stays bounded whatever the backend returned). Gaps (NaN, infinities) are
 * counted, never read as 0; a bucket without a finite value is {@code null}.
 */
public final class SeriesSummary {
    /** The most buckets a caller may ask for. */
    public static final int MAX_BUCKETS = 500;

    private SeriesSummary() {}

    /** The statistics of the finite values of one series. */
    public record Stats(int points, int gaps, double min, double max, double mean, double sum, double last, long lastAt) {
        /** Statistics of {@code series}; {@code points} is 0 (and the rest NaN) when it holds no finite value. */
        public static Stats of(Series series) {
            int points = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            double sum = 0;
            double last = Double.NaN;
            long lastAt = 0;
            for (int i = 0; i < series.size(); i++) {
                double v = series.valueAt(i);
                if (!Double.isFinite(v)) {
                    continue;
                }
                points++;
                min = Math.min(min, v);
                max = Math.max(max, v);
                sum += v;
                last = v;
                lastAt = series.timeAt(i);
            }
            if (points == 0) {
                return new Stats(0, series.size(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
            }
            double mean = sum / points;
            if (!Double.isFinite(mean)) {
                // finite values near the limit of a double (a hostile or broken backend) sum to infinity,
                // which is no JSON number: divide first, so no partial sum exceeds the largest value
                mean = 0;
                for (int i = 0; i < series.size(); i++) {
                    double v = series.valueAt(i);
                    if (Double.isFinite(v)) {
                        mean += v / points;
                    }
                }
            }
            return new Stats(points, series.size() - points, min, max, mean, sum, last, lastAt);
        }
    }

    /**
     * The summary of {@code series}: {@code labels}, {@code points}, {@code gaps} (when any),
     * {@code min}, {@code max}, {@code avg}, {@code last}, {@code lastAt}, {@code total} (when
     * {@code withTotal}: the sum, for counts per step) and {@code downsampled} {@code {from,
     * stepSeconds, values}}; a series without finite values gets a {@code note} instead of numbers.
     */
    public static JsonObjectBuilder of(Series series, int maxPoints, boolean withTotal) {
        return summary(series, maxPoints, withTotal, 0);
    }

    /**
     * The summary of counts that tile a window, each point counting the {@code stepMillis} that end
     * at its time (Loki's and Prometheus' range counts), as {@link #of} with {@code total}; but its
     * {@code downsampled} buckets are placed on the time the counted lines were written: the first
     * starts where the first step does, the window's start, and the buckets share out the whole window.
     * Placed on the points' times, each bucket would read one step late, and an onset found in them
     * a step after the one the metrics show.
     */
    static JsonObjectBuilder ofStepCounts(Series series, int maxPoints, long stepMillis) {
        if (stepMillis <= 0) {
            throw new IllegalArgumentException("stepMillis must be positive, got " + stepMillis);
        }
        return summary(series, maxPoints, true, stepMillis);
    }

    private static JsonObjectBuilder summary(Series series, int maxPoints, boolean withTotal, long countedBefore) {
        if (maxPoints < 1 || maxPoints > MAX_BUCKETS) {
            throw new IllegalArgumentException("maxPoints must be 1.." + MAX_BUCKETS + ", got " + maxPoints);
        }
        JsonObjectBuilder out = Jsonp.object().add("labels", labels(series.labels()));
        Stats stats = Stats.of(series);
        out.add("points", stats.points());
        if (stats.gaps() > 0) {
            out.add("gaps", stats.gaps());
        }
        if (stats.points() == 0) {
            return out.add("note", series.size() == 0 ? "the series has no points in the window"
                    : "the series holds only gaps (no finite value) in the window");
        }
        out.add("min", Figures.round(stats.min())).add("max", Figures.round(stats.max())).add("avg", Figures.round(stats.mean()))
                .add("last", Figures.round(stats.last())).add("lastAt", Instant.ofEpochMilli(stats.lastAt()).toString());
        if (withTotal && Double.isFinite(stats.sum())) {
            out.add("total", Figures.number(stats.sum()));
        } else if (withTotal) {
            out.add("note", "the values sum beyond the largest number JSON carries (about 1.8e308), so total is left out");
        }
        return out.add("downsampled", downsample(series, maxPoints, countedBefore));
    }

    /**
     * The properties of one summary as {@link #of} writes it, for an output schema; a tool adds
     * its own (the source, for example).
     */
    static JsonObjectBuilder schemaProperties(boolean withTotal) {
        JsonObjectBuilder properties = Jsonp.object()
                .add("labels", OutputFields.labels())
                .add("points", OutputFields.typed("integer", "Points with a finite value."))
                .add("gaps", OutputFields.typed("integer", "Points without a finite value (NaN, infinite); present only when some "
                        + "were, and never counted as 0."))
                .add("note", OutputFields.typed("string", "Instead of the numbers, when the series has no finite value; or why "
                        + "total is left out (the values sum beyond the range of a number)."))
                .add("min", OutputFields.type("number"))
                .add("max", OutputFields.type("number"))
                .add("avg", OutputFields.type("number"))
                .add("last", OutputFields.type("number"))
                .add("lastAt", OutputFields.typed("string", "When the last value was taken."));
        if (withTotal) {
            properties.add("total", OutputFields.typed("number", "The sum of the values (for counts per step: the whole window)."));
        }
        return properties.add("downsampled", OutputFields.object("The values averaged into equal time buckets; null for a "
                + "bucket without a finite value.", Jsonp.object()
                        .add("from", OutputFields.typed("string", withTotal
                                ? "The start of the first bucket: for counts per step, the start of the first step counted, so "
                                        + "each bucket holds the lines written in its own time."
                                : "The start of the first bucket."))
                        .add("stepSeconds", OutputFields.typed("integer", "The width of a bucket."))
                        .add("values", Jsonp.object().add("type", "array")
                                .add("items", Jsonp.object().add("type", Jsonp.array().add("number").add("null"))))));
    }

    /** The labels, sorted, as an object. */
    static JsonObject labels(Map<String, String> labels) {
        JsonObjectBuilder out = Jsonp.object();
        new TreeMap<>(labels).forEach(out::add);
        return out.build();
    }

    /**
     * The finite values averaged into buckets of equal width starting at the first point, or
     * {@code countedBefore} earlier when each point counts that much time before it; the width is
     * at least the series' own step, so a short series is returned point by point.
     */
    static JsonObject downsample(Series series, int maxPoints, long countedBefore) {
        int n = series.size();
        long first = series.timeAt(0);
        long span = series.timeAt(n - 1) - first;
        // the last point of a window that divides evenly joins the last bucket rather than opening one more;
        // counts cover their own step too, so their buckets share out the step before the first point as well
        long width = Math.max(Math.max(1000, step(series)), ceilDiv(span + countedBefore, maxPoints));
        width = ceilDiv(width, 1000) * 1000; // whole seconds, so stepSeconds is exact
        int buckets = (int) Math.min(maxPoints, span / width + 1);
        double[] sums = new double[buckets];
        int[] counts = new int[buckets];
        for (int i = 0; i < n; i++) {
            double v = series.valueAt(i);
            if (Double.isFinite(v)) {
                int b = (int) Math.min(buckets - 1, (series.timeAt(i) - first) / width);
                sums[b] += v;
                counts[b]++;
            }
        }
        JsonArrayBuilder values = Jsonp.array();
        for (int b = 0; b < buckets; b++) {
            if (counts[b] == 0) {
                values.addNull();
            } else {
                double mean = sums[b] / counts[b];
                values.add(Figures.round(Double.isFinite(mean) ? mean : bucketMeanDividingFirst(series, first, width, buckets, b,
                        counts[b])));
            }
        }
        return Jsonp.object().add("from", Instant.ofEpochMilli(first - countedBefore).toString()).add("stepSeconds", width / 1000)
                .add("values", values).build();
    }

    /** The mean of bucket {@code b} when its sum overflowed: each value divided before it is added. */
    private static double bucketMeanDividingFirst(Series series, long first, long width, int buckets, int b, int count) {
        double mean = 0;
        for (int i = 0; i < series.size(); i++) {
            double v = series.valueAt(i);
            if (Double.isFinite(v) && (int) Math.min(buckets - 1, (series.timeAt(i) - first) / width) == b) {
                mean += v / count;
            }
        }
        return mean;
    }

    /** The (lower) median distance between consecutive points: the query step, robust to missing samples. */
    private static long step(Series series) {
        int n = series.size();
        if (n < 2) {
            return 0;
        }
        long[] diffs = new long[n - 1];
        for (int i = 1; i < n; i++) {
            diffs[i - 1] = series.timeAt(i) - series.timeAt(i - 1);
        }
        Arrays.sort(diffs);
        return diffs[(diffs.length - 1) / 2]; // the lower median: one missing sample must not double the step
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
