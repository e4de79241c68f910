package dev.omcp.core.analysis.history;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A service's anomaly scores over the retention window in equal buckets, for
 * {@code /api/health/anomaly-sparklines}.
 *
 * @param service the service
 * @param start the start of the first bucket
 * @param bucket the width of one bucket
 * @param maxScores the highest score of any of the service's signals in each bucket; NaN where
 *     nothing was recorded (no data, not zero)
 * @param anomalous whether any verdict in the bucket was an anomaly
 * @param levelAboveLargestBucket whether any anomaly in the bucket took a latency above its
 *     histogram's largest bucket ({@code +Inf}): its score is a lower bound, so the bucket's
 *     highest score is one too (the true deviation of that signal may exceed every score plotted)
 */
public record Sparkline(String service, Instant start, Duration bucket, double[] maxScores, boolean[] anomalous,
        boolean[] levelAboveLargestBucket) {
    public Sparkline {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(bucket, "bucket");
        maxScores = maxScores.clone();
        anomalous = anomalous.clone();
        levelAboveLargestBucket = levelAboveLargestBucket.clone();
        if (maxScores.length != anomalous.length || maxScores.length != levelAboveLargestBucket.length) {
            throw new IllegalArgumentException("one anomalous flag and one levelAboveLargestBucket flag per bucket");
        }
        for (int i = 0; i < maxScores.length; i++) {
            if (levelAboveLargestBucket[i] && !anomalous[i]) {
                throw new IllegalArgumentException("bucket " + i + " of " + service
                        + " has a level above the largest histogram bucket, which belongs to an anomaly, but no anomaly");
            }
        }
    }

    /** A sparkline whose scores were all measured, none a lower bound. */
    public Sparkline(String service, Instant start, Duration bucket, double[] maxScores, boolean[] anomalous) {
        this(service, start, bucket, maxScores, anomalous, new boolean[maxScores.length]);
    }

    @Override
    public double[] maxScores() {
        return maxScores.clone();
    }

    @Override
    public boolean[] anomalous() {
        return anomalous.clone();
    }

    @Override
    public boolean[] levelAboveLargestBucket() {
        return levelAboveLargestBucket.clone();
    }

    /**
     * JSON: {@code service}, {@code start}, {@code bucketSeconds}, {@code scores} (null for empty
     * buckets), {@code anomalous}, and {@code levelAboveLargestBucket} (one flag per bucket, true
     * where the bucket's score is a lower bound) only when some bucket has one, as
     * {@code get_anomaly_history} writes the flag only when true.
     */
    public JsonObject toJson() {
        JsonArrayBuilder s = Jsonp.provider().createArrayBuilder();
        JsonArrayBuilder a = Jsonp.provider().createArrayBuilder();
        JsonArrayBuilder above = Jsonp.provider().createArrayBuilder();
        boolean anyAbove = false;
        for (int i = 0; i < maxScores.length; i++) {
            if (Double.isNaN(maxScores[i])) {
                s.addNull();
            } else {
                s.add(Math.round(maxScores[i] * 100) / 100.0);
            }
            a.add(anomalous[i]);
            above.add(levelAboveLargestBucket[i]);
            anyAbove |= levelAboveLargestBucket[i];
        }
        var o = Jsonp.provider().createObjectBuilder().add("service", service).add("start", start.toString())
                .add("bucketSeconds", bucket.toSeconds()).add("scores", s).add("anomalous", a);
        if (anyAbove) {
            o.add("levelAboveLargestBucket", above);
        }
        return o.build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sparkline x && x.service.equals(service) && x.start.equals(start) && x.bucket.equals(bucket)
                && Arrays.equals(x.maxScores, maxScores) && Arrays.equals(x.anomalous, anomalous)
                && Arrays.equals(x.levelAboveLargestBucket, levelAboveLargestBucket);
    }

    @Override
    public int hashCode() {
        return Objects.hash(service, start, bucket, Arrays.hashCode(maxScores), Arrays.hashCode(anomalous),
                Arrays.hashCode(levelAboveLargestBucket));
    }

    @Override
    public String toString() {
        return "Sparkline[" + service + ", " + maxScores.length + " buckets of " + bucket + "]";
    }
}
