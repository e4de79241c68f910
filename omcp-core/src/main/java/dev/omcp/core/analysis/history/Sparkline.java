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
 */
public record Sparkline(String service, Instant start, Duration bucket, double[] maxScores, boolean[] anomalous) {
    public Sparkline {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(bucket, "bucket");
        maxScores = maxScores.clone();
        anomalous = anomalous.clone();
        if (maxScores.length != anomalous.length) {
            throw new IllegalArgumentException("one anomalous flag per bucket");
        }
    }

    @Override
    public double[] maxScores() {
        return maxScores.clone();
    }

    @Override
    public boolean[] anomalous() {
        return anomalous.clone();
    }

    /** JSON: {@code service}, {@code start}, {@code bucketSeconds}, {@code scores} (null for empty buckets), {@code anomalous}. */
    public JsonObject toJson() {
        JsonArrayBuilder s = Jsonp.provider().createArrayBuilder();
        JsonArrayBuilder a = Jsonp.provider().createArrayBuilder();
        for (int i = 0; i < maxScores.length; i++) {
            if (Double.isNaN(maxScores[i])) {
                s.addNull();
            } else {
                s.add(Math.round(maxScores[i] * 100) / 100.0);
            }
            a.add(anomalous[i]);
        }
        return Jsonp.provider().createObjectBuilder().add("service", service).add("start", start.toString())
                .add("bucketSeconds", bucket.toSeconds()).add("scores", s).add("anomalous", a).build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sparkline x && x.service.equals(service) && x.start.equals(start) && x.bucket.equals(bucket)
                && Arrays.equals(x.maxScores, maxScores) && Arrays.equals(x.anomalous, anomalous);
    }

    @Override
    public int hashCode() {
        return Objects.hash(service, start, bucket, Arrays.hashCode(maxScores), Arrays.hashCode(anomalous));
    }

    @Override
    public String toString() {
        return "Sparkline[" + service + ", " + maxScores.length + " buckets of " + bucket + "]";
    }
}
