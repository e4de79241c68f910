package dev.omcp.core.analysis.health;

import java.util.Objects;

/**
 * A signal that returned no data, and why. Missing signals are named in the report and left out of
 * the score: they never count as zero.
 *
 * @param signal the signal
 * @param reason for example {@code "no metrics source has error_rate for checkout"} or
 *     {@code "source prometheus-2 timed out after 5s"}
 */
public record MissingSignal(HealthSignal signal, String reason) {
    public MissingSignal {
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(reason, "reason");
    }
}
