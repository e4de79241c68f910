package dev.omcp.ports.anomaly;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One anomaly score, as recorded each time a service's signal is judged.
 *
 * @param tenant the tenant the call ran for; empty string in a single-tenant gateway
 * @param service the service (may contain slashes)
 * @param signal the signal judged, for example {@code latency_p99}
 * @param at when it was judged
 * @param score the detector's score in robust standard deviations, finite and {@code >= 0}
 * @param anomalous whether the verdict was an anomaly
 * @param kind the anomaly's kind ({@code spike}, {@code step}, {@code ramp},
 *     {@code seasonal-deviation}) when anomalous
 * @param onset when the deviation began, as the detector dated it (the first point of the
 *     anomalous run, moved back to where it started): only for an anomaly, never after {@code at}.
 *     Several judgements of one incident share it, while {@code at} differs per judgement
 * @param levelAboveLargestBucket whether the anomaly took a latency above the largest finite bucket
 *     of its histogram ({@code +Inf}, too high to measure): {@code score} is then only a lower bound
 *     of how far off it is, and whoever ranks scores must not place it below a measured one. Only
 *     for an anomaly
 */
public record AnomalyScoreSample(
        String tenant, String service, String signal, Instant at, double score, boolean anomalous, Optional<String> kind,
        Optional<Instant> onset, boolean levelAboveLargestBucket) {
    /** Longest tenant, service or signal name accepted: keeps one sample's memory bounded. */
    public static final int MAX_NAME_LENGTH = 256;

    public AnomalyScoreSample {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(onset, "onset");
        if (service.isEmpty() || signal.isEmpty()) {
            throw new IllegalArgumentException("an anomaly score needs a service and a signal");
        }
        if (tenant.length() > MAX_NAME_LENGTH || service.length() > MAX_NAME_LENGTH || signal.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("tenant, service and signal names are limited to " + MAX_NAME_LENGTH + " characters");
        }
        if (!Double.isFinite(score) || score < 0) {
            throw new IllegalArgumentException("anomaly score must be finite and >= 0, got " + score
                    + " (a series with too little data has no score and is not recorded)");
        }
        if (onset.isPresent() && !anomalous) {
            throw new IllegalArgumentException("an onset belongs to an anomaly, but the verdict on " + signal + " of " + service
                    + " is normal: record the onset only with anomalous = true");
        }
        if (onset.isPresent() && onset.get().isAfter(at)) {
            throw new IllegalArgumentException("anomaly onset " + onset.get() + " is after the judgement at " + at
                    + " of " + signal + " of " + service + ": a deviation cannot begin after it was seen");
        }
        if (levelAboveLargestBucket && !anomalous) {
            throw new IllegalArgumentException("a level above the largest histogram bucket belongs to an anomaly, but the verdict on "
                    + signal + " of " + service + " is normal: set levelAboveLargestBucket only with anomalous = true");
        }
    }

    /**
     * A sample whose score was measured (not a lower bound): what every signal but a latency above
     * its histogram's largest bucket records.
     */
    public AnomalyScoreSample(
            String tenant, String service, String signal, Instant at, double score, boolean anomalous, Optional<String> kind,
            Optional<Instant> onset) {
        this(tenant, service, signal, at, score, anomalous, kind, onset, false);
    }
}
