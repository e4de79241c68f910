package dev.omcp.core.analysis.anomaly;

import java.util.Objects;

/**
 * The numbers behind a verdict, so an agent (or a human) can check it.
 *
 * @param method {@code flat} (median of the whole baseline), {@code seasonal} (median of the same
 *     phase of previous periods) or {@code trend} (a straight line through the baseline's recent
 *     part extended over the window)
 * @param baselineMedian the expected level: the baseline median, or for {@code seasonal} and
 *     {@code trend} the median of the expectations over the window
 * @param baselineMad the raw median absolute deviation of the baseline (of the residuals for
 *     {@code seasonal} and {@code trend}), before scaling and flooring; 0 for a constant baseline
 * @param scale the robust standard deviation z scores are measured in: 1.4826 x MAD, or when the MAD
 *     is 0 the scaled mean absolute deviation, never below the floor (see {@link #scaleSource})
 * @param scaleSource {@code mad}, {@code mean-abs-dev}, {@code floor} (1 % of the expected level),
 *     {@code minimum-change} (the absolute minimum change over the default threshold) or
 *     {@code off-zero} (a baseline of zeros without a minimum change: the spread of the window's
 *     move off them, at least 1 % of its size): which estimate set the scale. For {@code seasonal}
 *     the scale is the period-wide one; a window point at a time of day whose residuals scattered
 *     more is measured in that wider scale
 * @param windowMedian the median of all the window's values ({@code +Inf} when at least half of them
 *     lie above the largest histogram bucket). Not the anomaly's level: a window
 *     longer than the anomaly holds mostly normal points (see {@link #anomalyLevel})
 * @param expectedLevel what the expectation said where the anomaly's level was measured: the median
 *     of the expectations over the same run (for a ramp, the expectation at the window's end); the
 *     level the anomaly is "from". For {@code flat} it is {@link #baselineMedian}; for
 *     {@code trend} and {@code seasonal}, whose expectation moves through the window, it can differ
 *     from it a lot (a surge at the daily trough against a window that spans the peak). NaN for a
 *     verdict that is not anomalous
 * @param anomalyLevel where an anomaly took the series, in its unit: the median of the raw values of
 *     its strongest run (the one its score comes from; for a step still going on, the run that
 *     reaches the window's end), counted from the run's onset, or for a ramp the fitted level at
 *     its end; NaN for a verdict that is not anomalous; {@code +Inf} when that level lies above the
 *     largest histogram bucket, too high to measure (never a number invented for it). A lead-in that the run began with but the
 *     onset leaves out (a slow drift half the threshold off before a large step) is left out, as
 *     are the points an onset reaches back over before the run and earlier, weaker runs
 * @param currentLevel the level now: the median of the window's last few points (as many as a
 *     verdict needs at least, 3 or the dwell). It differs from {@link #anomalyLevel} when the anomaly
 *     has ended, as a spike has. {@code +Inf} when the series is above the largest histogram bucket now
 * @param baselinePoints how many finite baseline points were used (for {@code seasonal}: how many
 *     residuals of the last period before the window set the scale; for {@code trend}: how many
 *     points of the baseline's recent part the line and the scale come from)
 * @param windowPoints how many finite window points were judged
 * @param seasonPeriods for {@code seasonal}, how many previous periods fed the expectation; else 0
 * @param trendSlopePerHour the Theil-Sen slope of the window in series units per hour (NaN when
 *     the ramp check did not run or the window had no significant trend to measure)
 * @param windowPointsAboveLargestBucket window points at {@code +Inf} (a latency above the largest
 *     histogram bucket), judged as above every finite value and counted in {@code windowPoints}
 * @param baselinePointsAboveLargestBucket baseline points at {@code +Inf}, left out of the baseline
 *     and not counted in {@code baselinePoints}
 */
public record Evidence(
        String method, double baselineMedian, double baselineMad, double scale, String scaleSource,
        double windowMedian, double expectedLevel, double anomalyLevel, double currentLevel, int baselinePoints, int windowPoints,
        int seasonPeriods, double trendSlopePerHour, int windowPointsAboveLargestBucket, int baselinePointsAboveLargestBucket) {

    public Evidence {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(scaleSource, "scaleSource");
        if (baselinePoints < 0 || windowPoints < 0 || seasonPeriods < 0 || windowPointsAboveLargestBucket < 0
                || baselinePointsAboveLargestBucket < 0) {
            throw new IllegalArgumentException("point and period counts cannot be negative");
        }
    }
}
