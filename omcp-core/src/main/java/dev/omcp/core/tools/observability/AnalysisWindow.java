package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.DetectionSettings;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The time range an analysing tool reads: the recent {@code window} being judged plus a baseline
 * before it (at least an hour, four windows for longer ones), so the anomaly detector compares the
 * window with what came before and never with itself. The step keeps that baseline and window near
 * {@value #TARGET_POINTS} points and never finer than {@link #MIN_STEP}.
 *
 * <p>A window of {@link #SEASONAL_MIN_WINDOW} or more reads two days of history before it instead,
 * at about a thousand points (see {@link #SEASONAL_TARGET_POINTS}), so the detector can judge it against
 * the same time of the two previous days (a
 * daily {@link #season()}): a straight line through the hours before cannot follow the daily
 * curve across such a window (with the line, 13 of 100 traffic wobbles in a 2-hour window fired,
 * 31 in a 4-hour one; docs/analysis.md, Backtest). A series that does not reach back two days is
 * judged as before, on its last {@link #baseline()} (see {@link #forDetection}).
 *
 * @param window the recent stretch being judged
 * @param range the whole range read: history, baseline, window
 * @param step the resolution of the backend queries
 * @param baseline the stretch before the window that a series without two days of history is
 *     judged against, and that a health reading's "usual" request rate is the median of
 * @param season the daily period when the range holds two of them before the window
 */
public record AnalysisWindow(Duration window, TimeRange range, Duration step, Duration baseline, Optional<Duration> season) {
    /** The shortest window: at the finest step it still holds the points a verdict needs. */
    public static final Duration MIN_WINDOW = Duration.ofMinutes(2);
    /** The longest window. */
    public static final Duration MAX_WINDOW = Duration.ofDays(1);
    /** The shortest baseline before the window. */
    public static final Duration MIN_BASELINE = Duration.ofHours(1);
    /** The finest step: a rate over two steps then spans a minute, enough for 15-second scrapes. */
    public static final Duration MIN_STEP = Duration.ofSeconds(30);
    /**
     * The shortest window judged against the same time of previous days. Up to an hour the line
     * through the baseline's last 2 hours follows the daily curve well enough (2 of 100 wobbles
     * fired in the probes); from 2 hours on it does not.
     */
    public static final Duration SEASONAL_MIN_WINDOW = Duration.ofHours(2);
    /**
     * History read beyond the two periods, so a series whose first scrape of the range is missing,
     * or that the backend starts a step late, still holds two full periods before the window.
     */
    static final Duration SEASON_MARGIN = Duration.ofMinutes(30);
    static final int TARGET_POINTS = 600;
    /**
     * With a season: this many points over the two days, the margin and the window. The Prometheus
     * connector returns at most 1,000 points a series and widens a finer step itself, so asking for
     * more (3,000 were tried) only made the step the tools think they judge differ from the one they
     * get. A 2-hour window then has a 182 s step (60 s without the season), a day's window 261 s (12
     * minutes without it, when an incident of 25 minutes was 2 points, under the 3-point dwell).
     */
    static final int SEASONAL_TARGET_POINTS = 1_000;

    public AnalysisWindow {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(season, "season");
    }

    /**
     * The window of length {@code window} ending at {@code now}, with its baseline.
     *
     * @throws InvalidArgumentException when the window is outside {@link #MIN_WINDOW}..{@link #MAX_WINDOW}
     */
    static AnalysisWindow ending(Instant now, Duration window, String argument) {
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new InvalidArgumentException(argument + " " + Durations.format(window) + " is outside "
                    + Durations.format(MIN_WINDOW) + ".." + Durations.format(MAX_WINDOW) + ": a shorter window holds too few points "
                    + "to judge, a longer one is better read with query_metrics");
        }
        Duration baseline = window.multipliedBy(4).compareTo(MIN_BASELINE) > 0 ? window.multipliedBy(4) : MIN_BASELINE;
        Duration length = baseline.plus(window);
        long stepSeconds = Math.max(MIN_STEP.toSeconds(), (length.toSeconds() + TARGET_POINTS - 1) / TARGET_POINTS);
        if (window.compareTo(SEASONAL_MIN_WINDOW) < 0) {
            return new AnalysisWindow(window, TimeRange.ending(now, length), Duration.ofSeconds(stepSeconds), baseline, Optional.empty());
        }
        Duration season = DetectionSettings.DEFAULT_SEASON;
        Duration read = season.multipliedBy(2).plus(SEASON_MARGIN).plus(window);
        long seasonalStep = Math.max(MIN_STEP.toSeconds(), (read.toSeconds() + SEASONAL_TARGET_POINTS - 1) / SEASONAL_TARGET_POINTS);
        return new AnalysisWindow(window, TimeRange.ending(now, read), Duration.ofSeconds(seasonalStep), baseline,
                Optional.of(season));
    }

    /** Where the window starts (the baseline ends). */
    public Instant windowStart() {
        return range.end().minus(window);
    }

    /** Where the {@link #baseline()} starts. */
    public Instant baselineStart() {
        return windowStart().minus(baseline);
    }

    /**
     * The series and settings to judge a read series with. With a season, a series that holds two
     * periods before its window keeps its history and is judged against the same time of the
     * previous days; one that does not is cut to its last window and baseline (as read without a
     * season), and the detector's note says that a seasonal baseline needs two periods.
     */
    Judged forDetection(Series read, DetectionSettings settings) {
        Series series = endingAtRangeEnd(read);
        if (season.isEmpty()) {
            return new Judged(series, settings);
        }
        DetectionSettings seasonal = settings.withSeason(season.get());
        int n = series.size();
        if (n == 0) {
            return new Judged(series, seasonal);
        }
        int firstFinite = 0;
        while (firstFinite < n && !Double.isFinite(series.valueAt(firstFinite))) {
            firstFinite++;
        }
        long windowStart = series.timeAt(n - 1) - window.toMillis();
        if (firstFinite == n || series.timeAt(firstFinite) <= windowStart - season.get().multipliedBy(2).toMillis()) {
            return new Judged(series, seasonal);
        }
        long from = windowStart - baseline.toMillis();
        int first = 0;
        while (first < n && series.timeAt(first) < from) {
            first++;
        }
        if (first == 0) {
            return new Judged(series, seasonal);
        }
        long[] t = series.epochMillis();
        double[] x = series.values();
        return new Judged(new Series(series.labels(), Arrays.copyOfRange(t, first, n), Arrays.copyOfRange(x, first, n)), seasonal);
    }

    /**
     * The series with a gap (NaN) at the range's end when its points stop a step or more before it,
     * so the detector, which judges the stretch before a series' latest timestamp, judges this
     * window. A series stops when its pod is replaced or crashes, or the whole service stops
     * reporting (Prometheus returns no points once a series is stale, rather than gaps): judged on
     * its own last points, it read as normal (or anomalous) for a window that had ended minutes or
     * hours ago; now its window is empty and the verdict says since when it has reported nothing.
     * A last point less than a step before the end is where the backend's step grid ends, and stays
     * the window's end.
     */
    private Series endingAtRangeEnd(Series series) {
        int n = series.size();
        if (n == 0) {
            return series;
        }
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            latest = Math.max(latest, series.timeAt(i));
        }
        // the backend may have widened the step (Prometheus returns at most 1,000 points): the series' own is the larger
        long ownStep = n > 1 ? Math.abs(series.timeAt(n - 1) - series.timeAt(n - 2)) : 0;
        long end = range.end().toEpochMilli();
        if (end - latest < Math.max(step.toMillis(), ownStep)) {
            return series;
        }
        long[] t = Arrays.copyOf(series.epochMillis(), n + 1);
        double[] x = Arrays.copyOf(series.values(), n + 1);
        t[n] = end;
        x[n] = Double.NaN;
        return new Series(series.labels(), t, x);
    }

    /** A series and the settings it is judged with. */
    record Judged(Series series, DetectionSettings settings) {}
}
