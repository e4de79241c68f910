package dev.omcp.core.analysis.anomaly;

import dev.omcp.sdk.query.Series;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Robust anomaly detection on one time series: is the recent window out of line with the
 * baseline before it? Stateless and thread-safe; one instance serves every call.
 *
 * <p>Method (docs/analysis.md has the full description and the backtest figures):
 * <ol>
 *   <li><b>Split.</b> The window is the last {@link DetectionSettings#window()} of the series; the
 *       baseline is everything before it. Non-finite values (NaN gaps, infinities) are dropped,
 *       except, for latencies ({@link DetectionSettings#censoredAtInfinity()}), {@code +Inf} in the
 *       window: a percentile above the largest histogram bucket, judged as a censored value above
 *       every finite one (z at least {@value #CENSORED_Z}). Fewer than
 *       {@value #MIN_BASELINE_POINTS} baseline points or fewer than {@code max(3, dwell)} window
 *       points give {@code INSUFFICIENT_DATA}, never a guess.</li>
 *   <li><b>Expectation.</b> Flat: the baseline median. Seasonal (when a period is set and at least
 *       two full periods precede the window): for each point, the median of the points at the same
 *       phase (plus or minus two steps) of every previous period (at most {@link #MAX_SEASON_PERIODS}; a
 *       period shorter than {@value #MIN_BASELINE_POINTS} steps is skipped with a note), shifted by the median residual of the
 *       last baseline period so overall growth is not an anomaly. Trend (kinds without the ramp
 *       test, such as request rate, when no seasonal baseline applies and the whole baseline has a
 *       significant straight-line trend): a straight line through the baseline's last
 *       {@link #TREND_FIT_SPAN} (2 h; at least {@value #MIN_BASELINE_POINTS} points; the whole baseline
 *       when it is shorter or the window is longer than {@link #TREND_FIT_MAX_WINDOW}) extended over
 *       the window, so the morning climb of traffic is not an anomaly, and a daily curve, which is
 *       straight only over a couple of hours, is followed to where it was just before the window;
 *       latency, errors and saturation keep the flat median, because their climbs are symptoms.</li>
 *   <li><b>Scale.</b> 1.4826 x MAD of the baseline (of the seasonal residuals, or of the trend
 *       residuals of the stretch the line is fitted to); when the MAD is 0 (a constant or mostly
 *       constant baseline), 1.2533 x the mean absolute deviation; never below a floor of 1 % of the
 *       expected level, nor below the absolute minimum change divided by the default threshold (a
 *       move of the minimum change scores 3.5 sigma on a baseline quieter than that), nor 1e-9, so
 *       a constant series does not divide by 0. A baseline of zeros without a minimum change is
 *       measured by the window's move off them instead (see {@code Expectation.measuredOffZero}),
 *       so a flat-zero one does not score billions. A seasonal scale is widened by time of day
 *       where the last period's residuals scattered more ({@link PhaseScales}).</li>
 *   <li><b>Level test with dwell.</b> Each window point gets a robust z score. A run starts at a
 *       point with z at or beyond the sensitivity's threshold T and continues while z stays beyond
 *       T/2 (hysteresis); it counts only when it holds at least {@link Sensitivity#dwellPoints()}
 *       points beyond T, so a lone spike never fires, and when it moved the series by the settings'
 *       minimum changes (absolute, and as a share of the expected level). One-sided for latency,
 *       errors and saturation; two-sided for request rate. The run is measured (score, change,
 *       level) from its onset, so a lead-in the onset leaves out does not water it down; an escalation
 *       (dated from its first stage) scores as its last stage when that is higher.</li>
 *   <li><b>Ramp test</b> (latency, errors, saturation): when the level test finds nothing, a window
 *       whose Mann-Kendall trend z reaches the sensitivity's {@code trendZ}, whose Theil-Sen rise
 *       over the window (minus any trend the baseline already had) reaches {@code rampRise} sigmas
 *       and whose fitted end lies {@code rampEndLevel} sigmas above the expectation is a ramp.</li>
 *   <li><b>Kind.</b> Seasonal baseline: {@code seasonal-deviation}. Otherwise, from the last run:
 *       back near the baseline (median z below T/2) for at least a dwell before the window ends:
 *       {@code spike}; still deviating: a step and a ramp model (see {@link ShapeFit}) are fitted to
 *       the window and the ramp wins when it fits clearly better or the raised part keeps climbing
 *       (Mann-Kendall); otherwise {@code step}. A ramp's onset is the fitted change point (not
 *       with a seasonal baseline, whose verdict is a seasonal deviation: there the run's onset stands).</li>
 *   <li><b>Onset</b> (see {@code onsetOf}): the first run's first point at least half-way to its
 *       height, moved back over the points before it that are still half-way ({@code max(T/2, H/2)}
 *       off, into the baseline's tail if need be) and then over the step's rising edge; a part of
 *       the run before that which is an anomaly by itself dates it instead. For a small step that is
 *       every point T/2 off, as before; for a large one it stops at the jump rather than reach back
 *       over a slow drift that is only T/2 off.</li>
 * </ol>
 */
public final class AnomalyDetector {
    /** The sensitivity the tools use when the caller names none; the backtest gates this level. */
    public static final Sensitivity DEFAULT_SENSITIVITY = Sensitivity.MEDIUM;
    /** The fewest finite baseline points a verdict needs. */
    public static final int MIN_BASELINE_POINTS = 20;
    /** The fewest finite window points a verdict needs (never fewer than the dwell). */
    public static final int MIN_WINDOW_POINTS = 3;
    /** Trend statistics are O(n^2): longer stretches are first reduced to this many bucket medians. */
    static final int TREND_POINTS = 256;
    /** The scale floor relative to the expected level. */
    static final double RELATIVE_SCALE_FLOOR = 0.01;
    /** The absolute scale floor, for series whose level is 0. */
    static final double ABSOLUTE_SCALE_FLOOR = 1e-9;
    /** The scale source of a baseline of zeros measured by the window's move off them (see {@code Expectation.measuredOffZero}). */
    static final String OFF_ZERO = "off-zero";
    private static final double MILLIS_PER_HOUR = 3_600_000.0;
    /** The seasonal period is cut into this many bins for its scale by time of day (30 minutes of a day; see {@link PhaseScales}). */
    static final int PHASE_BINS = 48;
    /** A bin's scale comes from the residuals of the bins this many either side of it too. */
    static final int PHASE_REACH = 2;
    /** The fewest residuals a scale by time of day is measured from; fewer keep the period-wide scale. */
    static final int MIN_PHASE_POINTS = 10;
    /**
     * How many previous periods a seasonal expectation looks back at most, the most recent first.
     * Each window point is compared with every one, so a short period over a long history (an
     * embedder's 20 s season over a day of 1 s points) would cost as many lookups per point as
     * there are periods; four weeks of a daily season, far more than the tools' two days.
     */
    static final int MAX_SEASON_PERIODS = 28;
    /** The largest z score, in either direction (see {@link #bounded}). */
    static final double MAX_Z = 1e15;
    /**
     * The z score a window point above the largest histogram bucket ({@code +Inf}, when
     * {@link DetectionSettings#censoredAtInfinity()}) is given at least: how far above is unknown, so
     * the score is a lower bound. Four times the low sensitivity's threshold, so a run of such
     * points fires at every sensitivity whatever the baseline's noise, and as high as the root-cause
     * ranking counts severity at all (its saturation, 20 sigma): a latency too high for its
     * histogram to measure is the worst a latency can read. When the largest finite value of the
     * series already lies further off, that value's z is used: every finite answer of the histogram
     * lies below the bucket the censored one is above.
     */
    public static final double CENSORED_Z = 20;
    /** A ramp must fit at least this much better (sum of absolute residuals) than a step to be called one. */
    static final double RAMP_PREFERENCE = 0.85;
    /**
     * A point on a step's rising edge stands T/2 above the median of this many points that came
     * before it, the last of them {@link #EDGE_LAG} points earlier: the median of three ignores one
     * noisy point.
     */
    static final int EDGE_REFERENCE = 3;
    /**
     * How far back the edge's reference ends: skipping the two points just before a point lets a
     * step that builds slowly over several points (the demo's incident: 8 at 30 s) be followed down
     * to where it began, while a drift moves far too little over five points to pass. With the
     * points 1-3 or 2-4 before as the reference, two or one more of the backtest's steps on a
     * drift were dated late, part-way up their rise.
     */
    static final int EDGE_LAG = 3;
    /** How many standard errors apart the baseline's first and last thirds must be for its trend to count. */
    static final double TREND_SIGNIFICANCE = 2.0;
    /**
     * The trend line is fitted to the baseline's last this long: about as far as a daily traffic
     * curve stays close to a straight line. A fixed time, not a multiple of the window, because the
     * curve bends with the time of day whatever the window is. Through the whole 4 h baseline of a
     * one-hour window the line missed the window's end by 15-30 % near a trough or a peak; through
     * its last 2 h the backtest's one-hour traffic wobbles fire 4 times in 100 instead of 12. The
     * last hour did worse (its slope is noisier), and so did twice the window for 2-6 h windows
     * (docs/analysis.md, Backtest).
     */
    static final Duration TREND_FIT_SPAN = Duration.ofHours(2);
    /**
     * Windows longer than this keep the line through the whole baseline. The tools give such a
     * window a baseline of more than a day, whose line averages the daily curve out and stays
     * nearly flat; a line through its last 2 h extended over 7 h or more swings past the curve's
     * turn (in probes of 7-24 h windows 35-72 of 100 wobbles fired with it, 0-5 with the whole
     * baseline). Up to 6 h the recent line did better in the same probes.
     */
    static final Duration TREND_FIT_MAX_WINDOW = Duration.ofHours(6);

    /** Judges every series with the same settings, in order. */
    public List<AnomalyFinding> detectAll(List<Series> series, DetectionSettings settings) {
        List<AnomalyFinding> findings = new ArrayList<>(series.size());
        for (Series s : series) {
            findings.add(detect(s, settings));
        }
        return findings;
    }

    /** Judges one series. */
    public AnomalyFinding detect(Series read, DetectionSettings settings) {
        Map<String, String> labels = read.labels();
        int n = read.size();
        if (n == 0) {
            return AnomalyFinding.insufficient(labels, "the series has no points");
        }
        // the tools order series where they enter (MetricBatch); an embedder's series is ordered here, by the same rule
        Series series = SeriesOrder.ascending(read);
        Points all = Points.judged(series, settings.censoredAtInfinity());
        if (all.n == 0) {
            return AnomalyFinding.insufficient(labels, "the series holds no finite values (only gaps)");
        }
        long windowMillis = settings.window().toMillis();
        long windowEnd = latestTime(series);
        long windowStart = windowEnd - windowMillis;
        int split = all.firstAfter(windowStart);
        // a baseline is measured from values: one above the largest bucket has none, and left in it would move the median and MAD
        Points judged = all.withoutInfinityBefore(split);
        int baselineAboveBucket = all.n - judged.n;
        all = judged;
        split -= baselineAboveBucket;
        int baselineCount = split;
        int windowCount = all.n - split;
        Sensitivity sensitivity = settings.sensitivity();
        int neededWindow = Math.max(MIN_WINDOW_POINTS, sensitivity.dwellPoints());
        if (baselineCount < MIN_BASELINE_POINTS) {
            String aboveBucket = baselineAboveBucket == 0 ? "" : String.format(Locale.ROOT,
                    " (%d more were above the largest histogram bucket, +Inf, which a baseline cannot be measured from)",
                    baselineAboveBucket);
            return AnomalyFinding.insufficient(labels, String.format(Locale.ROOT,
                    "the baseline before the %s window holds %d finite points%s; at least %d are needed: query a range"
                            + " that reaches further back", human(settings.window()), baselineCount, aboveBucket, MIN_BASELINE_POINTS));
        }
        if (windowCount == 0) {
            // a series that stopped reporting (a crashed or removed pod, a service scaled to zero) is no normal one
            return AnomalyFinding.insufficient(labels, String.format(Locale.ROOT,
                    "the %s window up to %s holds no finite point: the series' last value is at %s, %s earlier; it stopped"
                            + " reporting (or reports only gaps) since", human(settings.window()), Instant.ofEpochMilli(windowEnd),
                    Instant.ofEpochMilli(all.t[all.n - 1]), human(Duration.ofMillis(windowEnd - all.t[all.n - 1]))));
        }
        if (windowCount < neededWindow) {
            return AnomalyFinding.insufficient(labels, String.format(Locale.ROOT,
                    "the %s window holds %d finite points; at least %d are needed: widen the window or shorten the step",
                    human(settings.window()), windowCount, neededWindow));
        }

        String seasonNote = "";
        Expectation expectation = null;
        double resolution = settings.minimum().scaleFloor();
        if (settings.seasonPeriod().isPresent()) {
            Duration period = settings.seasonPeriod().get();
            long history = windowStart - all.t[0];
            // the settings cannot know the step; an embedder's period of milliseconds or of a few steps is no season
            Duration step = Duration.ofMillis(all.medianStep());
            Duration shortest = step.multipliedBy(MIN_BASELINE_POINTS);
            if (period.compareTo(shortest) < 0) {
                seasonNote = String.format(Locale.ROOT, " Seasonal baseline skipped: the season period (%s) is shorter than %d steps of"
                        + " the series (%s at its step of %s), the points a period must hold to be compared with the last one.",
                        human(period), MIN_BASELINE_POINTS, human(shortest), human(step));
            } else if (period.compareTo(Duration.ofMillis(history).dividedBy(2)) <= 0) {
                expectation = Expectation.seasonal(all, split, windowStart, period.toMillis(), resolution);
                if (expectation == null) {
                    seasonNote = " Seasonal baseline skipped: too few points share a phase with previous periods.";
                }
            } else {
                seasonNote = String.format(Locale.ROOT,
                        " No seasonal baseline: a seasonal baseline needs two full periods (%s) of history before the window.",
                        human(period.multipliedBy(2)));
            }
        }
        if (expectation == null && !settings.trendDetection()) {
            // for a kind whose slow climbs are normal (traffic grows every morning), a baseline with a
            // clear straight-line trend is extended into the window instead of flattened to its median
            expectation = Expectation.trend(all, split, trendFitFrom(all, split, windowStart, settings.window()), resolution);
        }
        if (expectation == null) {
            expectation = Expectation.flat(all, split, resolution);
        }
        if (expectation.scale == ABSOLUTE_SCALE_FLOOR || (resolution == 0 && expectation.rawMad == 0 && expectation.center == 0)) {
            expectation = expectation.measuredOffZero(all, split);
        }
        return judge(labels, all, split, expectation, settings, seasonNote, baselineAboveBucket);
    }

    /**
     * Where the window ends: the series' latest timestamp, gaps included (a series whose last points
     * are NaN is judged up to them, and finds its window empty). The series is in time order
     * ({@link SeriesOrder}), so that is its last one.
     */
    static long latestTime(Series series) {
        return series.timeAt(series.size() - 1);
    }

    /**
     * Index of the first baseline point the trend line is fitted to: the last {@link #TREND_FIT_SPAN}
     * of the baseline, but never fewer than {@value #MIN_BASELINE_POINTS} points (a coarse step), and
     * the whole baseline for a window longer than {@link #TREND_FIT_MAX_WINDOW}. A baseline no longer
     * than the span (the default 15-minute window's hour) is fitted whole, as before.
     */
    static int trendFitFrom(Points all, int split, long windowStart, Duration window) {
        if (window.compareTo(TREND_FIT_MAX_WINDOW) > 0) {
            return 0;
        }
        int from = all.firstAfter(windowStart - TREND_FIT_SPAN.toMillis());
        return Math.max(0, Math.min(from, split - MIN_BASELINE_POINTS));
    }

    private AnomalyFinding judge(
            Map<String, String> labels, Points all, int split, Expectation e, DetectionSettings settings, String seasonNote,
            int baselineAboveBucket) {
        Sensitivity sens = settings.sensitivity();
        int wn = all.n - split;
        double[] z = new double[wn];
        double largestFinite = all.largestFinite();
        int windowAboveBucket = 0;
        for (int i = 0; i < wn; i++) {
            double x = all.x[split + i];
            if (x == Double.POSITIVE_INFINITY) {
                z[i] = censoredZ(largestFinite, e.expected[i], e.scaleAt(i));
                windowAboveBucket++;
            } else {
                z[i] = bounded(RobustStatistics.zScore(x, e.expected[i], e.scaleAt(i)));
            }
        }
        double windowMedian = RobustStatistics.median(Arrays.copyOfRange(all.x, split, all.n));
        List<Direction> directions = directions(settings.sidedness());

        MinimumChange minimum = settings.minimum();
        TooSmall tooSmall = new TooSmall();
        Detected best = null;
        for (Direction d : directions) {
            Detected found = levelRuns(all, split, e, z, d, sens, minimum, tooSmall);
            if (found != null && (best == null || found.score > best.score)) {
                best = found;
            }
        }
        double slopePerHour = Double.NaN;
        if (best == null && settings.trendDetection()) {
            for (Direction d : directions) {
                Ramp ramp = ramp(all, split, e, z, d, sens, minimum, tooSmall);
                if (ramp.detected != null && (best == null || ramp.detected.score > best.score)) {
                    best = ramp.detected;
                    slopePerHour = ramp.slopePerHourInUnits;
                } else if (best == null && Double.isNaN(slopePerHour)) {
                    // no ramp (yet): the slope a direction measured; the other direction of a climb finds no trend to measure
                    slopePerHour = ramp.slopePerHourInUnits;
                }
            }
        }
        // the level now: the last few points, as many as a verdict needs at least, so one noisy point does not set it
        int recent = Math.max(MIN_WINDOW_POINTS, sens.dwellPoints());
        double current = RobustStatistics.median(Arrays.copyOfRange(all.x, all.n - recent, all.n));
        double anomalyLevel = best == null ? Double.NaN : best.level;
        if (best != null && best.kind == AnomalyKind.RAMP && current == Double.POSITIVE_INFINITY) {
            // a fitted line through censored points would end at an invented latency: the climb ended above the bucket
            anomalyLevel = Double.POSITIVE_INFINITY;
        }
        double expectedLevel = best == null ? Double.NaN : best.expected;
        Evidence evidence = new Evidence(e.method, e.center, e.rawMad, e.scale, e.scaleSource, windowMedian, expectedLevel, anomalyLevel,
                current, e.baselinePoints, wn, e.periods, slopePerHour, windowAboveBucket, baselineAboveBucket);
        String censoring = censoringNote(windowAboveBucket, wn, baselineAboveBucket);
        if (best == null) {
            double score = 0;
            for (Direction d : directions) {
                score = Math.max(score, sustainedScore(z, d, sens.dwellPoints()));
            }
            String note = tooSmall.found()
                    ? tooSmall.note(minimum, seasonNote)
                    : String.format(Locale.ROOT,
                            "no sustained deviation: the strongest was %.1f sigma (an anomaly needs %.1f for %d points).%s",
                            score, sens.levelThreshold(), sens.dwellPoints(), seasonNote);
            return new AnomalyFinding(labels, AnomalyFinding.Status.NORMAL, score, Direction.NONE, Optional.empty(),
                    Optional.empty(), Optional.of(evidence), note + censoring);
        }
        AnomalyKind kind = e.seasonal ? AnomalyKind.SEASONAL_DEVIATION : best.kind;
        Instant onset = Instant.ofEpochMilli(best.onsetMillis);
        // the anomaly's own level, not the window's median: a window longer than the anomaly would
        // otherwise report the normal level as where the series went; an anomaly that has ended
        // also says where the series is now
        String now = best.kind == AnomalyKind.SPIKE ? ", back at " + num(current) + " now" : "";
        String note = String.format(Locale.ROOT, "%s %s: %.1f sigma %s the %s baseline (%s -> %s) since %s%s.%s",
                kind.wireName(), best.direction == Direction.UP ? "up" : "down", best.score,
                best.direction == Direction.UP ? "above" : "below", e.method, num(best.expected), num(anomalyLevel), onset, now,
                seasonNote);
        return new AnomalyFinding(labels, AnomalyFinding.Status.ANOMALOUS, best.score, best.direction,
                Optional.of(onset), Optional.of(kind), Optional.of(evidence), note + censoring);
    }

    /**
     * The z score of a window point above the largest histogram bucket: at least {@link #CENSORED_Z},
     * and at least the z of the series' largest finite value, which the censored one lies above.
     */
    static double censoredZ(double largestFinite, double expected, double scale) {
        double below = Double.isFinite(largestFinite) ? bounded(RobustStatistics.zScore(largestFinite, expected, scale)) : 0;
        return Math.max(CENSORED_Z, below);
    }

    /** What a verdict says about points above the largest histogram bucket; empty when there were none. */
    private static String censoringNote(int windowAboveBucket, int windowPoints, int baselineAboveBucket) {
        StringBuilder b = new StringBuilder();
        if (windowAboveBucket > 0) {
            b.append(String.format(Locale.ROOT, " %d of %d window points were above the largest histogram bucket (+Inf): each counts as"
                    + " at least %.0f sigma off, a lower bound, since how far above is unknown.", windowAboveBucket, windowPoints,
                    CENSORED_Z));
        }
        if (baselineAboveBucket > 0) {
            b.append(String.format(Locale.ROOT, " %d baseline point%s above the largest histogram bucket (+Inf) %s left out of the"
                    + " baseline.", baselineAboveBucket, baselineAboveBucket == 1 ? "" : "s", baselineAboveBucket == 1 ? "was" : "were"));
        }
        return b.toString();
    }

    /**
     * What one direction's test found. {@code level} is where the series went, in its own unit: the
     * median of the run the score comes from (its strongest, from its onset), or for a ramp the
     * fitted level at its end. {@code expected} is what the expectation said over the same points
     * (for a ramp, at the window's end): with a trend or seasonal baseline it differs from the
     * window's median expectation, and "from" that to the level could even point the wrong way.
     */
    private record Detected(Direction direction, double score, long onsetMillis, AnomalyKind kind, double level, double expected) {}

    private record Ramp(Detected detected, double slopePerHourInUnits) {}

    /**
     * The strongest deviation that held long enough but moved the series less than the minimum
     * change, so a normal verdict can say why its score passed the threshold without an anomaly.
     */
    private static final class TooSmall {
        private double score;
        private double change;
        private double expected;

        void offer(double candidateScore, double candidateChange, double candidateExpected) {
            if (candidateScore > score) {
                score = candidateScore;
                change = candidateChange;
                expected = candidateExpected;
            }
        }

        boolean found() {
            return score > 0;
        }

        String note(MinimumChange minimum, String seasonNote) {
            String share = expected != 0 ? String.format(Locale.ROOT, ", %+.1f %%", 100 * change / Math.abs(expected)) : "";
            return String.format(Locale.ROOT, "no anomaly: a deviation of %.1f sigma held (%s -> %s%s), but it is smaller than the "
                    + "minimum change worth reporting (%s).%s", score, num(expected), num(expected + change), share,
                    minimum.describe(), seasonNote);
        }
    }

    /** The level test with hysteresis and dwell, in one direction. Null when no run qualifies. */
    private static Detected levelRuns(Points all, int split, Expectation e, double[] z, Direction d, Sensitivity sens,
            MinimumChange minimum, TooSmall tooSmall) {
        int sign = d.sign();
        double t = sens.levelThreshold();
        double cont = t / 2;
        int wn = z.length;
        int dwell = sens.dwellPoints();
        int firstOnset = -1;
        double bestScore = 0;
        int lastEnd = -1;
        int strongestStart = -1;
        int strongestEnd = -1;
        int i = 0;
        while (i < wn) {
            if (sign * z[i] < t) {
                i++;
                continue;
            }
            int start = i;
            int exceed = 0;
            int end = i;
            while (i < wn && sign * z[i] >= cont) {
                if (sign * z[i] >= t) {
                    exceed++;
                }
                end = i;
                i++;
            }
            if (exceed < dwell) {
                continue;
            }
            // a lead-in the onset leaves out (a drift T/2 off that the hysteresis joined to a large
            // step) is no part of the anomaly: its score, change and level are measured from the onset
            Onset onset = onsetOf(all, split, e, z, sign, sens, minimum, start, end);
            int onsetIndex = onset.index();
            if (onsetIndex - split > start && exceeding(z, sign, t, onsetIndex - split, end) >= dwell) {
                start = onsetIndex - split;
            }
            double score = medianDeviation(z, sign, start, end);
            if (!minimum.none()) {
                RunChange change = RunChange.of(all, split, e, start, end);
                if (!minimum.metBy(change.change, change.expected)) {
                    tooSmall.offer(score, change.change, change.expected);
                    continue;
                }
            }
            // an escalation is dated from its first stage, but is as severe as its last: measured whole, 20
            // minutes at 6 sigma and then 10 at 30 scored 6 and read as where the first stage went
            int measuredFrom = start;
            int topStage = onset.topStage() - split;
            if (topStage > start && exceeding(z, sign, t, topStage, end) >= dwell) {
                double topScore = medianDeviation(z, sign, topStage, end);
                if (topScore > score) {
                    score = topScore;
                    measuredFrom = topStage;
                }
            }
            if (score > bestScore) {
                bestScore = score;
                strongestStart = measuredFrom;
                strongestEnd = end;
            }
            if (firstOnset < 0) {
                firstOnset = onsetIndex;
            }
            lastEnd = end;
        }
        if (firstOnset < 0) {
            return null;
        }
        long onset = all.t[firstOnset];
        AnomalyKind kind;
        double level;
        // what was expected where the level was measured: the same run (for a ramp, the window's end)
        double expected = RobustStatistics.median(Arrays.copyOfRange(e.expected, strongestStart, strongestEnd + 1));
        double[] dz = new double[wn];
        for (int k = 0; k < wn; k++) {
            dz[k] = sign * z[k];
        }
        int after = wn - 1 - lastEnd;
        if (after >= dwell && RobustStatistics.median(Arrays.copyOfRange(dz, lastEnd + 1, wn)) < cont) {
            // back near the baseline for at least a dwell before the window ended
            kind = AnomalyKind.SPIKE;
            level = RobustStatistics.median(Arrays.copyOfRange(all.x, split + strongestStart, split + strongestEnd + 1));
        } else {
            // still deviating at the end of the window: a step or a ramp? the better broken-stick fit says,
            // and a step whose raised part keeps climbing (Mann-Kendall) is a ramp too
            Reduced r = Reduced.of(all.t, dz, split, wn);
            ShapeFit.Fit step = ShapeFit.step(r.y, r.n);
            ShapeFit.Fit ramp = ShapeFit.ramp(r.t, r.y, r.n);
            int c = step.changeIndex();
            double climbing = RobustStatistics.mannKendallZ(Arrays.copyOfRange(r.y, c, r.n), r.n - c);
            if (ramp.cost() < RAMP_PREFERENCE * step.cost() || (ramp.cost() <= step.cost() && climbing >= sens.trendZ())) {
                kind = AnomalyKind.RAMP;
                expected = e.expected[wn - 1];
                if (!e.seasonal) {
                    // against a seasonal expectation the verdict is a seasonal deviation, not a ramp, and the
                    // residuals before the run are how one day differs from the last (its level, its timing):
                    // a line fitted through them dated surges in 12 h and 1 d windows hours early (27 of 100
                    // at 1 d), so the run's own onset stands (docs/analysis.md, Seasonal baseline in the tools)
                    onset = Math.min(onset, r.t[ramp.changeIndex()]);
                }
                // where the climb has got to, not the median of a climb that is still going on
                double endZ = ramp.parameter() * (r.t[r.n - 1] - r.t[ramp.changeIndex()]);
                level = e.expected[wn - 1] + sign * endZ * e.scaleAt(wn - 1);
            } else {
                kind = AnomalyKind.STEP;
                level = RobustStatistics.median(Arrays.copyOfRange(all.x, split + strongestStart, split + strongestEnd + 1));
            }
        }
        return new Detected(d, bestScore, onset, kind, level, expected);
    }

    /**
     * How far a run moved the series, in its own unit: the median distance of its points from their
     * expectations, and the median of those expectations (the level a relative minimum is a share of).
     */
    private record RunChange(double change, double expected) {
        static RunChange of(Points all, int split, Expectation e, int start, int end) {
            int len = end - start + 1;
            double[] diff = new double[len];
            for (int k = 0; k < len; k++) {
                diff[k] = all.x[split + start + k] - e.expected[start + k];
            }
            return new RunChange(RobustStatistics.median(diff), RobustStatistics.median(Arrays.copyOfRange(e.expected, start, end + 1)));
        }
    }

    /**
     * The onset of the run {@code [start, end]} (window indices) as an index into all points: where
     * the deviation that became this anomaly began; with where its top stage began, which for an
     * escalation is later.
     *
     * <p>A point belongs to the step when it is at least {@code max(T/2, H/2)} off, half-way from
     * the expectation to the step's level, with {@code H} the run's {@link #height}. For a small
     * step ({@code H <= T}) that is {@code T/2}, the run's own hysteresis, as the onset always
     * used. For a large one it keeps out a lead-in that is only {@code T/2} off: a slow drift the
     * flat baseline does not follow (the demo's memory drifts by a 3 % sine, 2-2.5 sigma off its
     * 4-hour median near the sine's crest, before a 35 % step), which walking back over every point
     * {@code T/2} off dated up to 24 minutes early.
     *
     * <ol>
     *   <li>The search starts at the run's first point at least half-way (a lead-in that crossed T
     *       by itself may have started the run) and moves back over the contiguous points at least
     *       half-way, into the baseline's tail if need be (a step that began just before the window
     *       started there).</li>
     *   <li>Then over the step's rising edge: points still {@code T/2} off that stand {@code T/2}
     *       above the median of the three points 3 to 5 before them ({@link #EDGE_REFERENCE},
     *       {@link #EDGE_LAG}). A step that took minutes to build (the demo's incident takes 4) is
     *       dated where it began, not half-way up; a drift rises too little over a few points to
     *       pass, and noise seldom does.</li>
     *   <li>When that leaves a part of the run before the step that is an anomaly of its own (at
     *       least a dwell of points beyond T, meeting the minimum changes), the anomaly began there:
     *       an escalation is dated from its first stage, by that stage's own height.</li>
     * </ol>
     */
    private static Onset onsetOf(Points all, int split, Expectation e, double[] z, int sign, Sensitivity sens,
            MinimumChange minimum, int start, int end) {
        double cont = sens.levelThreshold() / 2;
        int to = end;
        int topStage = -1;
        while (true) {
            double[] run = new double[to - start + 1];
            for (int j = start; j <= to; j++) {
                run[j - start] = sign * z[j];
            }
            double core = Math.max(cont, height(run, sens.dwellPoints()) / 2);
            // some point reaches the height, and every point of a run is at least T/2 off, so k <= to
            int k = start;
            while (k < to && sign * z[k] < core) {
                k++;
            }
            int g = stepStart(all, split, e, z, sign, split + k, core, cont);
            if (topStage < 0) {
                topStage = g;
            }
            int leadIn = g - split - 1;
            if (leadIn >= start && anomalyOfItsOwn(all, split, e, z, sign, sens, minimum, start, leadIn)) {
                // the run began before the step with a stretch that is an anomaly by itself: date that
                to = leadIn;
                continue;
            }
            return new Onset(g, topStage);
        }
    }

    /**
     * Where a run's anomaly began ({@code index}) and where the step that reaches the run's height
     * began ({@code topStage}), both indices into all points; the same but for an escalation, whose
     * onset is its first stage.
     */
    private record Onset(int index, int topStage) {}

    /** The median of the window's z scores {@code [from, to]} in the direction {@code sign}. */
    private static double medianDeviation(double[] z, int sign, int from, int to) {
        double[] run = new double[to - from + 1];
        for (int k = from; k <= to; k++) {
            run[k - from] = sign * z[k];
        }
        return RobustStatistics.median(run);
    }

    /**
     * A run's height in sigmas: the larger of the median of its upper half (the points at or above
     * its median) and the median of its last {@code max(3, dwell)} points. For a step that is about
     * its level. The run's plain median would not do: the hysteresis can join a long lead-in to the
     * step (a drift T/2 off for half an hour before a 35 % step), and its median, and the half-way
     * mark with it, would sit at the lead-in's level. The upper half keeps the step's level while
     * the step is at least a quarter of the run; its last points, while it is still going on at
     * the window's end however short it is.
     */
    private static double height(double[] run, int dwell) {
        double median = RobustStatistics.median(run);
        double[] upper = new double[run.length];
        int n = 0;
        for (double v : run) {
            if (v >= median) {
                upper[n++] = v;
            }
        }
        int last = Math.min(run.length, Math.max(MIN_WINDOW_POINTS, dwell));
        double end = RobustStatistics.median(Arrays.copyOfRange(run, run.length - last, run.length));
        return Math.max(RobustStatistics.median(upper, n), end);
    }

    /**
     * Where the step that reaches point {@code g} (an index into all points) began: back over the
     * contiguous points at least {@code core} off, then over its rising edge.
     */
    private static int stepStart(Points all, int split, Expectation e, double[] z, int sign, int g, double core, double cont) {
        while (g > 0 && deviation(all, split, e, z, sign, g - 1) >= core) {
            g--;
        }
        while (g > 0) {
            double d = deviation(all, split, e, z, sign, g - 1);
            if (!(d >= cont && d - deviationBefore(all, split, e, z, sign, g - 1) >= cont)) {
                break;
            }
            g--;
        }
        return g;
    }

    /** Whether the run's stretch {@code [start, end]} would be an anomaly alone: a dwell beyond T and the minimum changes. */
    private static boolean anomalyOfItsOwn(Points all, int split, Expectation e, double[] z, int sign, Sensitivity sens,
            MinimumChange minimum, int start, int end) {
        if (exceeding(z, sign, sens.levelThreshold(), start, end) < sens.dwellPoints()) {
            return false;
        }
        if (minimum.none()) {
            return true;
        }
        RunChange change = RunChange.of(all, split, e, start, end);
        return minimum.metBy(change.change, change.expected);
    }

    /** How many of the points {@code [from, to]} of the window are at least {@code t} off in the direction. */
    private static int exceeding(double[] z, int sign, double t, int from, int to) {
        int n = 0;
        for (int j = from; j <= to; j++) {
            if (sign * z[j] >= t) {
                n++;
            }
        }
        return n;
    }

    /**
     * The deviation of point {@code g} (an index into all points) in the anomaly's direction, in
     * sigmas: the window's z score, or for a baseline point its z against the expectation; NaN
     * where the baseline has none (a seasonal baseline before its last period).
     */
    private static double deviation(Points all, int split, Expectation e, double[] z, int sign, int g) {
        return sign * (g >= split ? z[g - split] : e.baselineZ(all, g));
    }

    /**
     * The median deviation of the {@value #EDGE_REFERENCE} points whose last is {@value #EDGE_LAG}
     * before point {@code g}: where the series was just before an edge reached {@code g}. NaN when
     * there are not that many or one is unknown, which ends the walk.
     */
    private static double deviationBefore(Points all, int split, Expectation e, double[] z, int sign, int g) {
        int to = g - EDGE_LAG;
        int from = to - EDGE_REFERENCE + 1;
        if (from < 0) {
            return Double.NaN;
        }
        double[] before = new double[EDGE_REFERENCE];
        for (int j = from; j <= to; j++) {
            before[j - from] = deviation(all, split, e, z, sign, j);
            if (Double.isNaN(before[j - from])) {
                return Double.NaN;
            }
        }
        return RobustStatistics.median(before);
    }

    /** The slow-ramp test in one direction, on the window's z scores. */
    private static Ramp ramp(Points all, int split, Expectation e, double[] z, Direction d, Sensitivity sens, MinimumChange minimum,
            TooSmall tooSmall) {
        int sign = d.sign();
        int wn = z.length;
        double[] dz = new double[wn];
        for (int i = 0; i < wn; i++) {
            dz[i] = sign * z[i];
        }
        Reduced r = Reduced.of(all.t, dz, split, wn);
        // cheapest test first: without a significant monotonic trend there is no ramp, and the
        // O(n^2 log n) slopes of the window and the baseline need not be computed
        double mk = RobustStatistics.mannKendallZ(r.y, r.n);
        if (mk < sens.trendZ()) {
            return new Ramp(null, Double.NaN);
        }
        double[] hours = new double[r.n];
        for (int i = 0; i < r.n; i++) {
            hours[i] = (r.t[i] - r.t[0]) / MILLIS_PER_HOUR;
        }
        double slope = RobustStatistics.theilSenSlope(hours, r.y, r.n);
        double slopeInUnits = sign * slope * e.scaleAt(wn - 1);
        if (Double.isNaN(slope) || slope <= 0) {
            return new Ramp(null, slopeInUnits);
        }
        double span = hours[r.n - 1];
        double[] intercepts = new double[r.n];
        for (int i = 0; i < r.n; i++) {
            intercepts[i] = r.y[i] - slope * hours[i];
        }
        double intercept = RobustStatistics.median(intercepts);
        double end = intercept + slope * span;
        if (slope * span < sens.rampRise() || end < sens.rampEndLevel()) {
            return new Ramp(null, slopeInUnits);
        }
        double expectedEnd = e.expected[wn - 1];
        double endScale = e.scaleAt(wn - 1);
        if (!minimum.metBy(end * endScale, expectedEnd)) {
            tooSmall.offer(end, sign * end * endScale, expectedEnd);
            return new Ramp(null, slopeInUnits);
        }
        // only now the baseline's own trend: a climb it already had is no new ramp
        double baselineSlope = e.seasonal || e.line != null ? 0 : Math.max(0, sign * e.baselineSlopePerHour(all, split));
        if ((slope - baselineSlope) * span < sens.rampRise()) {
            return new Ramp(null, slopeInUnits);
        }
        // the ramp started at the change point of the best broken-stick ramp fit
        long onset = r.t[ShapeFit.ramp(r.t, r.y, r.n).changeIndex()];
        // its level is where the fitted line ends, the same point the score measures
        double level = e.expected[wn - 1] + sign * end * endScale;
        return new Ramp(new Detected(d, end, onset, AnomalyKind.RAMP, level, expectedEnd), slopeInUnits);
    }

    /**
     * The strongest deviation held by {@code dwell} consecutive window points (the largest of their
     * minimum z), at least 0. Below the threshold whenever the level test found nothing, so a
     * normal verdict's score reads as "how close it came".
     */
    private static double sustainedScore(double[] z, Direction d, int dwell) {
        int sign = d.sign();
        int len = Math.min(dwell, z.length);
        double best = 0;
        for (int i = 0; i + len <= z.length; i++) {
            double min = Double.POSITIVE_INFINITY;
            for (int k = 0; k < len; k++) {
                min = Math.min(min, sign * z[i + k]);
            }
            best = Math.max(best, min);
        }
        return best;
    }

    /**
     * A z score within {@code ±}{@value #MAX_Z}, and 0 for NaN. Values near the limits of a double
     * (1e300 against a baseline of exact zeros, whose scale is the 1e-9 floor) overflow to infinity:
     * an infinite score is no JSON number and no severity, and it failed the whole tool call.
     * Nothing real comes near the bound when the settings carry an absolute minimum change (the
     * tools' error rate and latencies): it floors the scale. Without one, a series of exact zeros
     * still has the 1e-9 floor, and a 2 % against it is 2e7.
     */
    static double bounded(double z) {
        if (Double.isNaN(z)) {
            return 0;
        }
        return Math.max(-MAX_Z, Math.min(MAX_Z, z));
    }

    private static List<Direction> directions(Sidedness sidedness) {
        return switch (sidedness) {
            case INCREASE -> List.of(Direction.UP);
            case DECREASE -> List.of(Direction.DOWN);
            case BOTH -> List.of(Direction.UP, Direction.DOWN);
        };
    }

    static String human(Duration d) {
        if (d.getNano() != 0) {
            // a sub-second part (an embedder's step or period) would read "0d" below
            return new BigDecimal(d.getSeconds()).movePointRight(3).add(BigDecimal.valueOf(d.getNano(), 6))
                    .stripTrailingZeros().toPlainString() + "ms";
        }
        long s = d.toSeconds();
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s % 3600 == 0) {
            return s / 3600 + "h";
        }
        if (s % 60 == 0) {
            return s / 60 + "m";
        }
        return s + "s";
    }

    /** A level for a note; {@code +Inf} (a latency above the largest histogram bucket) in words, never "Infinity". */
    private static String num(double v) {
        if (v == Double.POSITIVE_INFINITY) {
            return "above the largest histogram bucket";
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    /**
     * The points of a series that are judged, in time order: the finite ones, and with censoring
     * also those at {@code +Inf} (above every finite value), which keep {@code +Inf} as their value.
     */
    static final class Points {
        final long[] t;
        final double[] x;
        final int n;

        private Points(long[] t, double[] x, int n) {
            this.t = t;
            this.x = x;
            this.n = n;
        }

        /** The finite points, and with {@code censoredAtInfinity} also the {@code +Inf} ones, of a series in time order. */
        static Points judged(Series series, boolean censoredAtInfinity) {
            int size = series.size();
            long[] t = new long[size];
            double[] x = new double[size];
            int n = 0;
            for (int i = 0; i < size; i++) {
                double v = series.valueAt(i);
                if (Double.isFinite(v) || (censoredAtInfinity && v == Double.POSITIVE_INFINITY)) {
                    t[n] = series.timeAt(i);
                    x[n++] = v;
                }
            }
            return new Points(t, x, n);
        }

        /** These points without the {@code +Inf} ones before index {@code split}; this instance when there are none. */
        Points withoutInfinityBefore(int split) {
            int removed = 0;
            for (int i = 0; i < split; i++) {
                if (x[i] == Double.POSITIVE_INFINITY) {
                    removed++;
                }
            }
            if (removed == 0) {
                return this;
            }
            long[] kt = new long[n - removed];
            double[] kx = new double[n - removed];
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (i >= split || x[i] != Double.POSITIVE_INFINITY) {
                    kt[k] = t[i];
                    kx[k++] = x[i];
                }
            }
            return new Points(kt, kx, k);
        }

        /** The largest finite value; NaN when there is none. */
        double largestFinite() {
            double max = Double.NaN;
            for (int i = 0; i < n; i++) {
                if (Double.isFinite(x[i]) && !(x[i] <= max)) {
                    max = x[i];
                }
            }
            return max;
        }

        /** Index of the first point strictly after {@code millis}. */
        int firstAfter(long millis) {
            int lo = 0;
            int hi = n;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (t[mid] <= millis) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** Index of the first point at or after {@code millis}. */
        int firstAtOrAfter(long millis) {
            return firstAfter(millis - 1);
        }

        long medianStep() {
            if (n < 2) {
                return 1;
            }
            double[] diffs = new double[n - 1];
            int c = 0;
            for (int i = 1; i < n; i++) {
                long dt = t[i] - t[i - 1];
                if (dt > 0) {
                    diffs[c++] = dt;
                }
            }
            return c == 0 ? 1 : Math.max(1, (long) RobustStatistics.median(diffs, c));
        }
    }

    /** A stretch of points reduced to at most {@link #TREND_POINTS} bucket medians. */
    static final class Reduced {
        final long[] t;
        final double[] y;
        final int n;

        private Reduced(long[] t, double[] y, int n) {
            this.t = t;
            this.y = y;
            this.n = n;
        }

        /** {@code y[k]} belongs to time {@code times[offset + k]}. */
        static Reduced of(long[] times, double[] y, int offset, int len) {
            if (len <= TREND_POINTS) {
                long[] t = Arrays.copyOfRange(times, offset, offset + len);
                return new Reduced(t, Arrays.copyOf(y, len), len);
            }
            long[] rt = new long[TREND_POINTS];
            double[] ry = new double[TREND_POINTS];
            for (int b = 0; b < TREND_POINTS; b++) {
                int from = (int) ((long) b * len / TREND_POINTS);
                int to = (int) ((long) (b + 1) * len / TREND_POINTS);
                ry[b] = RobustStatistics.median(Arrays.copyOfRange(y, from, to));
                rt[b] = times[offset + (from + to - 1) / 2];
            }
            return new Reduced(rt, ry, TREND_POINTS);
        }
    }

    /** What each window point was expected to be, and the scale deviations are measured in. */
    static final class Expectation {
        final String method;
        final boolean seasonal;
        final double[] expected;
        final double center;
        final double rawMad;
        final double scale;
        final String scaleSource;
        final int baselinePoints;
        final int periods;
        /** Seasonal only: residual z of baseline points (index into Points), NaN where unknown. */
        private final double[] baselineResidualZ;
        /** Seasonal only: the scale (by time of day) each of {@link #baselineResidualZ} is measured in. */
        private final double[] baselineResidualScales;
        private final int residualFrom;
        private final double flatMedian;
        /** Trend only: the straight line fitted to the baseline; null for the other methods. */
        final Line line;
        /**
         * The scale of each window point: {@link #scale} for the flat and trend baselines; for the
         * seasonal one, at least that and at least the scale of the residuals at the same time of
         * day (see {@link PhaseScales}).
         */
        private final double[] windowScales;

        private Expectation(String method, boolean seasonal, double[] expected, double center, double rawMad,
                double scale, String scaleSource, int baselinePoints, int periods, double[] baselineResidualZ,
                double[] baselineResidualScales, int residualFrom, double flatMedian, Line line, double[] windowScales) {
            this.method = method;
            this.seasonal = seasonal;
            this.expected = expected;
            this.center = center;
            this.rawMad = rawMad;
            this.scale = scale;
            this.scaleSource = scaleSource;
            this.baselinePoints = baselinePoints;
            this.periods = periods;
            this.baselineResidualZ = baselineResidualZ;
            this.baselineResidualScales = baselineResidualScales;
            this.residualFrom = residualFrom;
            this.flatMedian = flatMedian;
            this.line = line;
            if (windowScales == null) {
                windowScales = new double[expected.length];
                Arrays.fill(windowScales, scale);
            }
            this.windowScales = windowScales;
        }

        /**
         * This expectation with the scale of a move off a baseline of zeros. A baseline of exact
         * zeros (or of floating-point noise around 0) without an absolute minimum change has no
         * yardstick but the 1e-9 floor, and measured in it a raw metric's 0 -> 5 scored 5e9, first in
         * every ranking, and a jitter of 1e-6 a thousand sigmas; one of mostly zeros (MAD 0 at level
         * 0) only the mean absolute deviation of the few points that left them, often the first
         * points of the same move (a jitter that began a few points before the window scored 26). The points that moved off the
         * expectation (more than half the default threshold in units of that floor) are then the only
         * measure there is: the scale is the robust spread of their deviations, and at least
         * {@link AnomalyDetector#RELATIVE_SCALE_FLOOR} of their median size, as it is of a level
         * anywhere else. A sustained move to a steady level scores about 100 (1 % of it), one that
         * moved to noisy values in units of that noise, and noise that merely left the zeros scores
         * about 1: it moved as far as it scatters. The scale never shrinks. Fewer moved points than
         * {@value AnomalyDetector#MIN_WINDOW_POINTS} keep the floor: nothing of the window can dwell.
         */
        Expectation measuredOffZero(Points all, int split) {
            int wn = all.n - split;
            double[] deviations = new double[wn];
            int moved = 0;
            double reach = ABSOLUTE_SCALE_FLOOR * DEFAULT_SENSITIVITY.levelThreshold() / 2;
            for (int i = 0; i < wn; i++) {
                double d = all.x[split + i] - expected[i];
                if (Double.isFinite(d) && Math.abs(d) > reach) {
                    deviations[moved++] = d;
                }
            }
            if (moved < MIN_WINDOW_POINTS) {
                return this;
            }
            double[] sizes = new double[moved];
            for (int k = 0; k < moved; k++) {
                sizes[k] = Math.abs(deviations[k]);
            }
            double middle = RobustStatistics.median(deviations, moved);
            double spread = RobustStatistics.MAD_TO_SIGMA * RobustStatistics.mad(deviations, moved, middle);
            double offZero = Math.max(ABSOLUTE_SCALE_FLOOR, Math.max(spread, RELATIVE_SCALE_FLOOR * RobustStatistics.median(sizes)));
            if (!(offZero > scale)) {
                return this;
            }
            double[] scales = new double[wn];
            Arrays.fill(scales, offZero);
            // the baseline's tail, which an onset may be moved back into, is measured in the window's scale too:
            // each seasonal residual z was divided by its own time of day's scale, not by the day-wide one
            double[] residualZ = null;
            double[] residualScales = null;
            if (baselineResidualZ != null) {
                residualZ = new double[baselineResidualZ.length];
                residualScales = new double[baselineResidualZ.length];
                Arrays.fill(residualScales, offZero);
                for (int k = 0; k < residualZ.length; k++) {
                    residualZ[k] = baselineResidualZ[k] * baselineResidualScales[k] / offZero;
                }
            }
            return new Expectation(method, seasonal, expected, center, rawMad, offZero, OFF_ZERO, baselinePoints, periods, residualZ,
                    residualScales, residualFrom, flatMedian, line, scales);
        }

        /** The scale window point {@code i} is measured in. */
        double scaleAt(int i) {
            return windowScales[i];
        }

        static Expectation flat(Points all, int split, double resolution) {
            double m = RobustStatistics.median(all.x, split);
            double mad = RobustStatistics.mad(all.x, split, m);
            Scale s = Scale.of(all.x, split, m, mad, Math.abs(m), resolution);
            double[] expected = new double[all.n - split];
            Arrays.fill(expected, m);
            return new Expectation("flat", false, expected, m, mad, s.value, s.source, split, 0, null, null, 0, m, null, null);
        }

        /**
         * The baseline's recent straight-line trend extended over the window, or null when the
         * baseline has no clear one. Whether it has one is judged on the whole baseline: Tukey's
         * resistant line through it (its slope joins the medians of the first and the last third,
         * its intercept is the median of what the slope leaves, so a few outliers cannot tilt it)
         * counts only when the thirds differ by at least {@value AnomalyDetector#TREND_SIGNIFICANCE}
         * standard errors of that difference, measured on the residual noise around it: a noisy
         * flat baseline keeps the flat median. The whole baseline's thirds hold the most points, so
         * the answer is as firm as it was before the line was fitted to a part.
         *
         * <p>The line that is extended is the same kind of line through the baseline from
         * {@code fitFrom} on (see {@link AnomalyDetector#trendFitFrom}): a daily curve bends, and a
         * line through hours of it misses the window where the curve turns. The scale comes from
         * the residuals of that same stretch, around that line: the part the line is not fitted to
         * would be measured against a line extended backwards past the turn, and its misfit would
         * widen the scale (it hid 35-60 % surges in 2 h windows in the probes).
         */
        static Expectation trend(Points all, int split, int fitFrom, double resolution) {
            TukeyLine whole = TukeyLine.through(all, 0, split);
            // the scale floor of the test is a share of where the whole line puts the window, as it always was
            if (whole == null || !whole.significant(Math.abs(RobustStatistics.median(whole.over(all, split))), resolution)) {
                return null;
            }
            TukeyLine recent = fitFrom == 0 ? whole : TukeyLine.through(all, fitFrom, split);
            if (recent == null) {
                return null;
            }
            double[] expected = recent.over(all, split);
            double center = RobustStatistics.median(expected);
            Scale s = recent.scale(Math.abs(center), resolution);
            // no flat median: baseline z scores come from the line, and the ramp test skips the baseline slope
            return new Expectation("trend", false, expected, center, recent.mad, s.value, s.source, recent.n, 0, null, null, 0,
                    Double.NaN, recent.line, null);
        }

        /** Null when too few baseline points share a phase with an earlier period. */
        static Expectation seasonal(Points all, int split, long windowStart, long period, double resolution) {
            long step = all.medianStep();
            long half = 2 * step;
            // residuals of the last baseline period, each against its own previous periods
            int from = all.firstAfter(windowStart - period);
            int count = split - from;
            double[] residuals = new double[Math.max(count, 0)];
            double[] residualOf = new double[Math.max(count, 0)];
            int rc = 0;
            for (int i = from; i < split; i++) {
                double exp = expectationAt(all, all.t[i], windowStart, period, half, null);
                residualOf[i - from] = Double.NaN;
                if (!Double.isNaN(exp)) {
                    double r = all.x[i] - exp;
                    residuals[rc++] = r;
                    residualOf[i - from] = r;
                }
            }
            if (rc < MIN_BASELINE_POINTS) {
                return null;
            }
            double bias = RobustStatistics.median(residuals, rc);
            double mad = RobustStatistics.mad(residuals, rc, bias);
            int wn = all.n - split;
            double[] expected = new double[wn];
            double[] levels = new double[wn];
            int[] periodsUsed = new int[1];
            int maxPeriods = 0;
            for (int i = 0; i < wn; i++) {
                periodsUsed[0] = 0;
                double exp = expectationAt(all, all.t[split + i], windowStart, period, half, periodsUsed);
                maxPeriods = Math.max(maxPeriods, periodsUsed[0]);
                // a window point with no same-phase history is judged against the flat median of the baseline
                expected[i] = Double.isNaN(exp) ? Double.NaN : exp + bias;
                levels[i] = Math.abs(expected[i]);
            }
            double flatMedian = RobustStatistics.median(all.x, split);
            for (int i = 0; i < wn; i++) {
                if (Double.isNaN(expected[i])) {
                    expected[i] = flatMedian;
                    levels[i] = Math.abs(flatMedian);
                }
            }
            Scale s = Scale.of(residuals, rc, bias, mad, RobustStatistics.median(levels), resolution);
            long periodStart = windowStart - period;
            PhaseScales phases = PhaseScales.of(all, from, residualOf, bias, periodStart, period, s.value);
            double[] residualZ = new double[count];
            double[] residualScales = new double[count];
            for (int k = 0; k < count; k++) {
                residualScales[k] = phases.at(all.t[from + k]);
                residualZ[k] = (residualOf[k] - bias) / residualScales[k];
            }
            double[] windowScales = new double[wn];
            for (int i = 0; i < wn; i++) {
                windowScales[i] = phases.at(all.t[split + i]);
            }
            return new Expectation("seasonal", true, expected, RobustStatistics.median(expected), mad, s.value, s.source,
                    rc, maxPeriods, residualZ, residualScales, from, flatMedian, null, windowScales);
        }

        /**
         * The median of the values at the same phase of previous periods (within {@code half} of
         * {@code t - k * period}, for {@code k} up to {@link AnomalyDetector#MAX_SEASON_PERIODS}),
         * using only points at or before {@code limit}; NaN when none.
         */
        private static double expectationAt(Points all, long t, long limit, long period, long half, int[] periodsUsed) {
            double[] buf = new double[64];
            int c = 0;
            for (long k = 1; k <= MAX_SEASON_PERIODS; k++) {
                long center = t - k * period;
                if (center + half < all.t[0]) {
                    break;
                }
                boolean any = false;
                for (int i = all.firstAtOrAfter(center - half); i < all.n && all.t[i] <= center + half && all.t[i] <= limit; i++) {
                    if (c == buf.length) {
                        buf = Arrays.copyOf(buf, c * 2);
                    }
                    buf[c++] = all.x[i];
                    any = true;
                }
                if (any && periodsUsed != null) {
                    periodsUsed[0]++;
                }
            }
            return RobustStatistics.median(buf, c);
        }

        /** The z score of baseline point {@code index}, for moving an onset back into the baseline. */
        double baselineZ(Points all, int index) {
            if (line != null) {
                return RobustStatistics.zScore(all.x[index], line.at(all.t[index]), scale);
            }
            if (!seasonal) {
                return RobustStatistics.zScore(all.x[index], flatMedian, scale);
            }
            int k = index - residualFrom;
            return k >= 0 && k < baselineResidualZ.length ? baselineResidualZ[k] : Double.NaN;
        }

        /** The Theil-Sen slope of the baseline in z units per hour. */
        double baselineSlopePerHour(Points all, int split) {
            double[] zs = new double[split];
            for (int i = 0; i < split; i++) {
                zs[i] = (all.x[i] - flatMedian) / scale;
            }
            Reduced r = Reduced.of(all.t, zs, 0, split);
            double[] hours = new double[r.n];
            for (int i = 0; i < r.n; i++) {
                hours[i] = (r.t[i] - r.t[0]) / MILLIS_PER_HOUR;
            }
            double slope = RobustStatistics.theilSenSlope(hours, r.y, r.n);
            return Double.isNaN(slope) ? 0 : slope;
        }
    }

    /**
     * The seasonal scale by time of day. One MAD over a whole period of residuals is the noise of a
     * typical time of day, but noise that grows with the level (traffic, whose noise is a share of
     * the rate: at the daily peak several times what it is at the trough) is wider at the peak: a
     * daily curve of +/-30…60 % with 1…4 % autocorrelated noise, judged with a raw name's settings
     * (no minimum change), fired in about 10 % of clean 12-hour windows, nearly all near the peak,
     * against 0.25 % for the same noise on a flat level (docs/analysis.md, Seasonal baseline in the
     * tools). So the period is cut into {@value AnomalyDetector#PHASE_BINS} bins and each gets the
     * scale of the residuals within {@value AnomalyDetector#PHASE_REACH} bins either side (for a day:
     * the 2.5 h around that time), measured around the same bias as the day-wide one; a point is
     * measured in the larger of that and the day-wide scale. Never smaller: the day-wide scale keeps
     * its floors, and a quiet trough measured on a couple of hours alone would fire on its noise.
     */
    static final class PhaseScales {
        private final double[] byBin;
        private final long periodStart;
        private final long period;

        private PhaseScales(double[] byBin, long periodStart, long period) {
            this.byBin = byBin;
            this.periodStart = periodStart;
            this.period = period;
        }

        /**
         * From the residuals {@code residualOf[k]} of the points {@code from + k} (NaN where none),
         * the last period's, which starts at {@code periodStart}.
         */
        static PhaseScales of(Points all, int from, double[] residualOf, double bias, long periodStart, long period, double dayWide) {
            int[] counts = new int[PHASE_BINS];
            for (int k = 0; k < residualOf.length; k++) {
                if (!Double.isNaN(residualOf[k])) {
                    counts[bin(all.t[from + k], periodStart, period)]++;
                }
            }
            double[][] deviations = new double[PHASE_BINS][];
            for (int b = 0; b < PHASE_BINS; b++) {
                deviations[b] = new double[counts[b]];
            }
            int[] filled = new int[PHASE_BINS];
            for (int k = 0; k < residualOf.length; k++) {
                if (!Double.isNaN(residualOf[k])) {
                    int b = bin(all.t[from + k], periodStart, period);
                    deviations[b][filled[b]++] = Math.abs(residualOf[k] - bias);
                }
            }
            double[] byBin = new double[PHASE_BINS];
            for (int b = 0; b < PHASE_BINS; b++) {
                int lo = Math.max(0, b - PHASE_REACH);
                int hi = Math.min(PHASE_BINS - 1, b + PHASE_REACH);
                int n = 0;
                for (int j = lo; j <= hi; j++) {
                    n += counts[j];
                }
                byBin[b] = dayWide;
                if (n < MIN_PHASE_POINTS) {
                    continue;
                }
                double[] near = new double[n];
                int c = 0;
                for (int j = lo; j <= hi; j++) {
                    System.arraycopy(deviations[j], 0, near, c, counts[j]);
                    c += counts[j];
                }
                byBin[b] = Math.max(dayWide, RobustStatistics.MAD_TO_SIGMA * RobustStatistics.median(near));
            }
            return new PhaseScales(byBin, periodStart, period);
        }

        private static int bin(long t, long periodStart, long period) {
            long offset = Math.floorMod(t - periodStart, period);
            return (int) Math.min(PHASE_BINS - 1, offset * PHASE_BINS / period);
        }

        /** The scale at the time of day (phase) of {@code t}. */
        double at(long t) {
            return byBin[bin(t, periodStart, period)];
        }
    }

    /**
     * Tukey's resistant line through the points {@code [from, split)}: the slope joins the medians of
     * the first and the last third, the intercept is the median of what the slope leaves; with the
     * residuals around it and their MAD.
     */
    private record TukeyLine(Line line, double rise, int third, double[] residuals, int n, double mad) {
        /** Null when the thirds do not follow each other in time (all points at one instant). */
        static TukeyLine through(Points all, int from, int split) {
            int n = split - from;
            int third = n / 3;
            double left = RobustStatistics.median(Arrays.copyOfRange(all.x, from, from + third));
            double right = RobustStatistics.median(Arrays.copyOfRange(all.x, split - third, split));
            double leftTime = (all.t[from] + all.t[from + third - 1]) / 2.0;
            double rightTime = (all.t[split - third] + all.t[split - 1]) / 2.0;
            if (!(rightTime > leftTime)) {
                return null;
            }
            double slope = (right - left) / (rightTime - leftTime);
            double[] intercepts = new double[n];
            for (int i = 0; i < n; i++) {
                intercepts[i] = all.x[from + i] - slope * (all.t[from + i] - leftTime);
            }
            Line line = new Line(RobustStatistics.median(intercepts), slope, leftTime);
            double[] residuals = new double[n];
            for (int i = 0; i < n; i++) {
                residuals[i] = all.x[from + i] - line.at(all.t[from + i]);
            }
            return new TukeyLine(line, Math.abs(right - left), third, residuals, n, RobustStatistics.mad(residuals, n, 0));
        }

        /** The line at each window point (the points from {@code split} on). */
        double[] over(Points all, int split) {
            double[] at = new double[all.n - split];
            for (int i = 0; i < at.length; i++) {
                at[i] = line.at(all.t[split + i]);
            }
            return at;
        }

        /** The robust scale of the residuals; {@code level} and {@code resolution} set its floor. */
        Scale scale(double level, double resolution) {
            return Scale.of(residuals, n, 0, mad, level, resolution);
        }

        /** Whether the thirds differ by at least {@link #TREND_SIGNIFICANCE} standard errors of that difference. */
        boolean significant(double level, double resolution) {
            // the standard error of the difference of two medians of `third` points each
            double standardError = RobustStatistics.MEAN_ABS_DEV_TO_SIGMA * scale(level, resolution).value * Math.sqrt(2.0 / third);
            return rise >= TREND_SIGNIFICANCE * standardError;
        }
    }

    /** A straight line through the baseline: {@code level} at {@code originMillis}, {@code slope} per millisecond. */
    record Line(double level, double slope, double originMillis) {
        double at(long millis) {
            return level + slope * (millis - originMillis);
        }
    }

    /**
     * The scale deviations are measured in, and which estimate set it: {@code mad},
     * {@code mean-abs-dev}, or a floor: {@code floor} (1 % of the expected level, or 1e-9) or
     * {@code minimum-change} (the settings' absolute minimum change over the default threshold,
     * see {@link MinimumChange#scaleFloor()}), whichever is larger.
     */
    private record Scale(double value, String source) {
        static Scale of(double[] values, int n, double center, double mad, double level, double resolution) {
            double levelFloor = Math.max(RELATIVE_SCALE_FLOOR * level, ABSOLUTE_SCALE_FLOOR);
            double floor = Math.max(levelFloor, resolution);
            String floorSource = resolution > levelFloor ? "minimum-change" : "floor";
            double estimate;
            String source;
            if (mad > 0) {
                estimate = RobustStatistics.MAD_TO_SIGMA * mad;
                source = "mad";
            } else {
                estimate = RobustStatistics.MEAN_ABS_DEV_TO_SIGMA * RobustStatistics.meanAbsoluteDeviation(values, n, center);
                source = "mean-abs-dev";
            }
            if (!(estimate >= floor)) {
                return new Scale(floor, floorSource);
            }
            return new Scale(estimate, source);
        }
    }
}
