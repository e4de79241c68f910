package dev.omcp.core.analysis.health;

import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import java.util.Objects;

/**
 * An anomaly verdict on one of a service's health signals (from
 * {@link dev.omcp.core.analysis.anomaly.AnomalyDetector}).
 */
public record SignalAnomaly(HealthSignal signal, AnomalyFinding finding) {
    public SignalAnomaly {
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(finding, "finding");
    }
}
