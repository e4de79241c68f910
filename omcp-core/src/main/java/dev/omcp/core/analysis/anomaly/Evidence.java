package dev.omcp.core.analysis.anomaly;

/**
 * The numbers behind a verdict, so an agent (or a human) can check it.
 *
 * @param method {@code flat} (median of the whole baseline), {@code seasonal} (median of the same
 *     phase of previous periods) or {@code trend} (the baseline's straight-line trend extended over
 *     the window)
 * @param baselineMedian the expected level: the baseline median, or for {@code seasonal} and
 *     {@code trend} the median of the expectations over the window
 * @param baselineMad the raw median absolute deviation of the baseline (of the residuals for
 *     {@code seasonal} and {@code trend}), before scaling and flooring; 0 for a constant baseline
 * @param scale the robust standard deviation z scores are measured in: 1.4826 x MAD, or when the MAD
 *     is 0 the scaled mean absolute deviation, never below the floor (see {@link #scaleSource})
 * @param scaleSource {@code mad}, {@code mean-abs-dev} or {@code floor}: which estimate set the scale
 * @param windowMedian the median of the window's values
 * @param baselinePoints how many finite baseline points were used (for {@code seasonal}: how many
 *     residuals of the last period before the window set the scale)
 * @param windowPoints how many finite window points were judged
 * @param seasonPeriods for {@code seasonal}, how many previous periods fed the expectation; else 0
 * @param trendSlopePerHour the Theil-Sen slope of the window in series units per hour (NaN when
 *     the ramp check did not run or the window had no significant trend to measure)
 */
public record Evidence(
        String method, double baselineMedian, double baselineMad, double scale, String scaleSource,
        double windowMedian, int baselinePoints, int windowPoints, int seasonPeriods, double trendSlopePerHour) {
}
