package dev.omcp.core.analysis.health;

/**
 * When one signal turns degraded and critical, and how much it weighs in the overall score.
 * Construct through {@link HealthThresholds#parse} or {@link HealthThresholds#defaults()}, which
 * validate; the compact constructor only refuses values that can never make sense.
 *
 * @param degraded the measure at or above which the signal is degraded
 * @param critical the measure at or above which it is critical; greater than {@code degraded}
 * @param weight the signal's weight in the overall score, {@code > 0}
 */
public record SignalThreshold(double degraded, double critical, double weight) {
    public SignalThreshold {
        if (!(degraded > 0) || !(critical > degraded) || !(weight > 0) || Double.isInfinite(critical) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("a threshold needs 0 < degraded < critical and a finite weight > 0, got degraded="
                    + degraded + " critical=" + critical + " weight=" + weight);
        }
    }
}
