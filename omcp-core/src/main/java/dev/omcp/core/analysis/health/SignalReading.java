package dev.omcp.core.analysis.health;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What one signal returned: the current value, and for {@link HealthSignal#REQUEST_RATE_DROP} the
 * baseline rate it is compared with.
 *
 * @param signal the signal
 * @param value the current value in the signal's unit (for the request-rate drop: the current
 *     request rate, any unit); for {@link HealthSignal#LATENCY_P99} also {@code +Inf}, how a
 *     source may report a percentile above the largest finite bucket (Prometheus' own
 *     {@code histogram_quantile} answers that bucket's bound instead): a latency too high to
 *     measure, not a missing one (see {@link #aboveLargestBucket()})
 * @param baseline the usual request rate in the same unit as {@code value}; only for
 *     {@link HealthSignal#REQUEST_RATE_DROP}
 * @param source where it came from (a source name), for the report
 */
public record SignalReading(HealthSignal signal, double value, OptionalDouble baseline, String source) {
    public SignalReading {
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(source, "source");
        boolean beyondHistogram = value == Double.POSITIVE_INFINITY && signal == HealthSignal.LATENCY_P99;
        if (!(Double.isFinite(value) || beyondHistogram) || value < 0) {
            throw new IllegalArgumentException(signal.wireName() + " reading must be a finite number >= 0"
                    + (signal == HealthSignal.LATENCY_P99 ? " or +Inf (above the largest histogram bucket)" : "") + ", got " + value
                    + "; a signal without data is a MissingSignal, not a reading");
        }
        if (signal == HealthSignal.REQUEST_RATE_DROP) {
            if (baseline.isEmpty() || !Double.isFinite(baseline.getAsDouble()) || baseline.getAsDouble() <= 0) {
                throw new IllegalArgumentException("request_rate_drop needs a positive finite baseline rate, got " + baseline);
            }
        } else if (baseline.isPresent()) {
            throw new IllegalArgumentException("only request_rate_drop takes a baseline");
        }
    }

    /** A reading of any signal but the request-rate drop. */
    public static SignalReading of(HealthSignal signal, double value, String source) {
        return new SignalReading(signal, value, OptionalDouble.empty(), source);
    }

    /**
     * A p99 latency above the largest finite bucket of its histogram ({@code histogram_quantile}
     * answers {@code +Inf}): too high to measure. Read as a gap it would leave the service healthy
     * while its requests are slower than anything its histogram was built for.
     */
    public static SignalReading latencyAboveLargestBucket(String source) {
        return of(HealthSignal.LATENCY_P99, Double.POSITIVE_INFINITY, source);
    }

    /** Whether the value is {@code +Inf}: above the largest histogram bucket, too high to measure. */
    public boolean aboveLargestBucket() {
        return value == Double.POSITIVE_INFINITY;
    }

    /** The request rate now against its usual rate. */
    public static SignalReading requestRate(double current, double baseline, String source) {
        return new SignalReading(HealthSignal.REQUEST_RATE_DROP, current, OptionalDouble.of(baseline), source);
    }

    /** The measure thresholds apply to: the value, or for the request rate the fraction lost (0 for a surge). */
    public double measure() {
        if (signal == HealthSignal.REQUEST_RATE_DROP) {
            return Math.max(0, 1 - value / baseline.getAsDouble());
        }
        return value;
    }
}
