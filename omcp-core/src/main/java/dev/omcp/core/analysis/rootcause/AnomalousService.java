package dev.omcp.core.analysis.rootcause;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A service with at least one anomalous signal.
 *
 * @param service the service name (resolved against the topology like a blast-radius target)
 * @param onset when its earliest anomaly began
 * @param severity its strongest anomaly score (robust sigmas), {@code > 0}
 * @param signals the anomalous signals, for the explanation (for example {@code latency_p99})
 */
public record AnomalousService(String service, Instant onset, double severity, List<String> signals) {
    public AnomalousService {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(onset, "onset");
        signals = List.copyOf(signals);
        if (!Double.isFinite(severity) || severity <= 0) {
            throw new IllegalArgumentException("severity of " + service + " must be a finite number > 0, got " + severity);
        }
    }
}
