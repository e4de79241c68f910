package dev.omcp.core.analysis.health;

import java.util.Objects;
import java.util.Optional;

/**
 * How one signal scored.
 *
 * @param signal the signal
 * @param value the reading's value (for the request-rate drop, the current rate)
 * @param measure what the thresholds were applied to (for the request-rate drop, the fraction lost)
 * @param status from the thresholds, raised to at least degraded by an anomaly in the harmful direction
 * @param score 0 (worst) to 100 (best), see {@link HealthEvaluator}
 * @param weight the signal's weight in the overall score
 * @param threshold the thresholds applied
 * @param source the source of the reading
 * @param reason one sentence: why this status
 */
public record SignalHealth(
        HealthSignal signal, double value, double measure, HealthStatus status, double score, double weight,
        SignalThreshold threshold, String source, String reason) {
    public SignalHealth {
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(threshold, "threshold");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(reason, "reason");
    }

    Optional<String> driver() {
        return status == HealthStatus.HEALTHY ? Optional.empty() : Optional.of(reason);
    }
}
