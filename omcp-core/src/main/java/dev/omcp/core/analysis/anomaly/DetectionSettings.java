package dev.omcp.core.analysis.anomaly;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to judge one series.
 *
 * <p>The <em>window</em> is the recent stretch being judged: the points whose timestamp lies within
 * {@code window} of the series' last timestamp. Everything before it is the <em>baseline</em>,
 * which therefore never contains the points it is compared with.
 *
 * @param sidedness which deviations count
 * @param trendDetection whether the slow-ramp detector runs; when it does not (throughput, other),
 *     a steady climb is normal: when the baseline has a clear straight-line trend, a line through
 *     its last 2 hours (where a daily curve is still nearly straight) extended over the window is
 *     the expectation
 * @param window length of the recent window
 * @param seasonPeriod the period of the same-phase baseline (for example one day); used only when
 *     the series holds at least two full periods before the window, else the flat baseline is used
 *     and the evidence says so
 * @param sensitivity thresholds
 * @param minimumChange the smallest absolute change (in the series' unit) worth reporting; 0 for no
 *     such limit. Stops a flat-zero error rate from alarming on a single stray request
 * @param minimumRelativeChange the smallest change worth reporting as a share of the expected level
 *     (0.2: a fifth), applied alongside {@code minimumChange}; 0 for no such limit. Stops a request
 *     rate a few per cent off its expectation (a wobble, or a curved day that even a line through
 *     the recent hours misses a little) from reading as an incident, however small its noise makes
 *     that in sigmas
 * @param censoredAtInfinity whether {@code +Inf} is a value above every finite one rather than a gap:
 *     how a source may report a latency percentile above the largest finite bucket of its histogram
 *     (Prometheus' own {@code histogram_quantile} answers that bucket's bound instead, a finite
 *     level judged as any other). In the window such a point is judged as a censored observation (its
 *     z score at least {@link AnomalyDetector#CENSORED_Z}); in the baseline it is left out, so it
 *     cannot move the median or the MAD. Off, {@code +Inf} is dropped like NaN
 */
public record DetectionSettings(
        Sidedness sidedness, boolean trendDetection, Duration window, Optional<Duration> seasonPeriod,
        Sensitivity sensitivity, double minimumChange, double minimumRelativeChange, boolean censoredAtInfinity) {

    /** The window the tools judge when the caller names none. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(15);
    /** The seasonal period the tools pass when the queried range is long enough (daily traffic). */
    public static final Duration DEFAULT_SEASON = Duration.ofDays(1);

    public DetectionSettings {
        Objects.requireNonNull(sidedness, "sidedness");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(seasonPeriod, "seasonPeriod");
        Objects.requireNonNull(sensitivity, "sensitivity");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("detection window must be positive, got " + window);
        }
        seasonPeriod.ifPresent(p -> {
            if (p.isNegative() || p.isZero()) {
                throw new IllegalArgumentException("season period must be positive, got " + p);
            }
        });
        // one place validates both limits
        new MinimumChange(minimumChange, minimumRelativeChange);
    }

    /**
     * The settings for a metric of the given kind: its sidedness and ramp check, the default window,
     * no season, the default sensitivity.
     */
    public static DetectionSettings of(MetricKind kind) {
        return new DetectionSettings(kind.sidedness(), kind.trendDetection(), DEFAULT_WINDOW, Optional.empty(),
                AnomalyDetector.DEFAULT_SENSITIVITY, 0, 0, kind.censoredAtInfinity());
    }

    /** The settings for a curated or raw metric name, see {@link MetricKind#forMetric}. */
    public static DetectionSettings forMetric(String metric) {
        return of(MetricKind.forMetric(metric));
    }

    public DetectionSettings withWindow(Duration newWindow) {
        return new DetectionSettings(sidedness, trendDetection, newWindow, seasonPeriod, sensitivity, minimumChange, minimumRelativeChange,
                censoredAtInfinity);
    }

    public DetectionSettings withSeason(Duration period) {
        return new DetectionSettings(sidedness, trendDetection, window, Optional.of(period), sensitivity, minimumChange,
                minimumRelativeChange, censoredAtInfinity);
    }

    public DetectionSettings withSensitivity(Sensitivity newSensitivity) {
        return new DetectionSettings(sidedness, trendDetection, window, seasonPeriod, newSensitivity, minimumChange, minimumRelativeChange,
                censoredAtInfinity);
    }

    public DetectionSettings withMinimumChange(double change) {
        return new DetectionSettings(sidedness, trendDetection, window, seasonPeriod, sensitivity, change, minimumRelativeChange,
                censoredAtInfinity);
    }

    /** With a smallest change worth reporting, as a share of the expected level (0.2 for a fifth). */
    public DetectionSettings withMinimumRelativeChange(double share) {
        return new DetectionSettings(sidedness, trendDetection, window, seasonPeriod, sensitivity, minimumChange, share,
                censoredAtInfinity);
    }

    /** With {@code +Inf} read as above every finite value (true) or dropped as a gap (false); see {@link #censoredAtInfinity}. */
    public DetectionSettings withCensoredAtInfinity(boolean censored) {
        return new DetectionSettings(sidedness, trendDetection, window, seasonPeriod, sensitivity, minimumChange, minimumRelativeChange,
                censored);
    }

    /** Both minimum changes, as the detector applies them. */
    MinimumChange minimum() {
        return new MinimumChange(minimumChange, minimumRelativeChange);
    }
}
