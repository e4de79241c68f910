package dev.omcp.testkit.demo.system;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The injected incident: one dependency slows down and its callers fail in turn.
 *
 * @param start when the root cause begins
 * @param rootCause the service that slows down
 * @param latencyFactors how much slower each affected service answers at full strength
 * @param rampUp how long it takes to reach full strength
 * @param errorRatios extra error ratio per affected service at full strength
 * @param onsetDelays how long after {@code start} each affected service starts to suffer
 */
public record Incident(
        Instant start,
        String rootCause,
        Map<String, Double> latencyFactors,
        Duration rampUp,
        Map<String, Double> errorRatios,
        Map<String, Duration> onsetDelays) {
    public Incident {
        latencyFactors = Map.copyOf(latencyFactors);
        errorRatios = Map.copyOf(errorRatios);
        onsetDelays = Map.copyOf(onsetDelays);
    }

    /** The latency multiplier of {@code service} at {@code epochMillis}. */
    public double latencyMultiplier(String service, long epochMillis) {
        return 1 + (latencyFactors.getOrDefault(service, 1.0) - 1) * strength(service, epochMillis);
    }

    /** The extra error ratio of {@code service} at {@code epochMillis}. */
    public double extraErrorRatio(String service, long epochMillis) {
        return errorRatios.getOrDefault(service, 0.0) * strength(service, epochMillis);
    }

    /** Strength of the incident for {@code service} at {@code epochMillis}, from 0 (none) to 1 (full). */
    public double strength(String service, long epochMillis) {
        Duration delay = onsetDelays.get(service);
        if (delay == null) {
            return 0;
        }
        long onset = start.toEpochMilli() + delay.toMillis();
        if (epochMillis <= onset) {
            return 0;
        }
        return Math.min(1.0, (epochMillis - onset) / (double) Math.max(1, rampUp.toMillis()));
    }
}
