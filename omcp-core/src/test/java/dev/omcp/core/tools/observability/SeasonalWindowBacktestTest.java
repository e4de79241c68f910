package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.DetectionSettings;
import dev.omcp.sdk.query.Series;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tools' long windows on traffic with a daily curve, read as {@code detect_anomalies} reads
 * them ({@link AnalysisWindow}: two days of history from {@code 2h} on) and judged with the tools'
 * {@code request_rate} settings: a wobble of 3…10 % must stay quiet, a surge or drop of 35…60 % must
 * be found, dated within 3 steps. Each case is also judged as the tools did before they set the season (the window and
 * its usual baseline only, the line through the baseline's last 2 hours), and the table printed
 * shows both (docs/analysis.md, Seasonal baseline in the tools).
 *
 * <p>The days are not copies of each other: each has its own level (±8 %) and its curve is shifted
 * by up to ±20 minutes, and the noise is autocorrelated, as {@code rate()} over overlapping ranges
 * gives. 40 cases per window and kind in every {@code mvn verify};
 * {@code -Domcp.backtest.perCategory=100} for the documented table.
 */
class SeasonalWindowBacktestTest {
    private static final AnomalyDetector DETECTOR = new AnomalyDetector();
    private static final int CASES = Integer.getInteger("omcp.backtest.perCategory", 40);
    private static final long DAY = 86_400_000L;

    private record Tally(Duration window, int wobbles, int wobblesFired, int wobblesFiredBefore, int surges, int surgesFound,
            int surgesFoundBefore, int surgesDatedRight) {}

    /** One case: the series as read, the window, whether it holds a surge and where that began. */
    private record Case(String name, Series series, AnalysisWindow window, boolean surge, long onset) {}

    private static Case generate(Duration window, boolean surge, long seed) {
        Random rnd = new Random(seed);
        // a moment of the day, any minute
        Instant now = Instant.parse("2026-03-10T00:00:00Z").plus(Duration.ofMinutes(rnd.nextInt(24 * 60)));
        AnalysisWindow w = AnalysisWindow.ending(now, window, "window");
        double level = 20 + rnd.nextDouble() * 2000;
        double amplitude = 0.3 + rnd.nextDouble() * 0.3;
        double harmonic = rnd.nextDouble() * 0.15;
        double sigma = 0.01 + rnd.nextDouble() * 0.03;
        // the days are no copies: the level grows or shrinks by up to 4 % a day and wanders by up to
        // 4 % over a few days, and the curve's timing wanders by up to 20 minutes, all smoothly
        double growthPerDay = (rnd.nextDouble() - 0.5) * 0.08;
        double wander = rnd.nextDouble() * 0.04;
        double wanderPeriod = (3 + rnd.nextDouble() * 4) * DAY;
        double wanderPhase = rnd.nextDouble() * 2 * Math.PI;
        double drift = rnd.nextDouble() * 20 / (24 * 60.0);
        double driftPeriod = (2 + rnd.nextDouble() * 3) * DAY;
        double driftPhase = rnd.nextDouble() * 2 * Math.PI;
        long step = w.step().toMillis();
        long from = w.range().start().toEpochMilli();
        long end = w.range().end().toEpochMilli();
        long windowStart = w.windowStart().toEpochMilli();
        // the surge (or wobble) starts inside the window, early enough to hold a dwell and more
        long change = windowStart + (long) (rnd.nextDouble() * 0.8 * window.toMillis());
        change -= Math.floorMod(change - from, step);
        double share = (surge ? 0.35 + rnd.nextDouble() * 0.25 : 0.03 + rnd.nextDouble() * 0.07) * (rnd.nextBoolean() ? 1 : -1);
        int n = (int) ((end - from) / step) + 1;
        long[] t = new long[n];
        double[] x = new double[n];
        double ar = 0;
        for (int i = 0; i < n; i++) {
            t[i] = from + i * step;
            double days = (t[i] - end) / (double) DAY;
            double dayFraction = Math.floorMod(t[i], DAY) / (double) DAY + drift * Math.sin(2 * Math.PI * t[i] / driftPeriod + driftPhase);
            double curve = 1 + amplitude * Math.sin(2 * Math.PI * (dayFraction - 0.25)) + harmonic * Math.sin(4 * Math.PI * dayFraction);
            double dayLevel = (1 + growthPerDay * days) * (1 + wander * Math.sin(2 * Math.PI * t[i] / wanderPeriod + wanderPhase));
            ar = 0.8 * ar + rnd.nextGaussian() * sigma * Math.sqrt(1 - 0.64);
            x[i] = level * dayLevel * curve * (t[i] >= change ? 1 + share : 1) * (1 + ar);
        }
        return new Case((surge ? "surge" : "wobble") + "@" + window + "#" + seed, new Series(Map.of("job", "shop"), t, x), w, surge, change);
    }

    private static DetectionSettings settings(AnalysisWindow w) {
        return CuratedMetricNames.detectionSettings(CuratedMetricNames.REQUEST_RATE).withWindow(w.window());
    }

    private static AnomalyFinding judgedNow(Case c) {
        AnalysisWindow.Judged judged = c.window().forDetection(c.series(), settings(c.window()));
        return DETECTOR.detect(judged.series(), judged.settings());
    }

    /** As before the season: only the window and its usual baseline, no season. */
    private static AnomalyFinding judgedBefore(Case c) {
        long from = c.window().baselineStart().toEpochMilli();
        long[] t = c.series().epochMillis();
        double[] x = c.series().values();
        int first = 0;
        while (t[first] < from) {
            first++;
        }
        Series cut = new Series(c.series().labels(), java.util.Arrays.copyOfRange(t, first, t.length),
                java.util.Arrays.copyOfRange(x, first, x.length));
        return DETECTOR.detect(cut, settings(c.window()));
    }

    private static Tally run(Duration window, List<String> wrong, List<String> contradictions) {
        int wobblesFired = 0;
        int wobblesBefore = 0;
        int found = 0;
        int foundBefore = 0;
        int datedRight = 0;
        for (int k = 0; k < CASES; k++) {
            Case wobble = generate(window, false, 20_000 + k);
            AnomalyFinding f = judgedNow(wobble);
            if (f.anomalous()) {
                wobblesFired++;
                wrong.add(wobble.name() + " fired: " + f.note());
            }
            wobblesBefore += judgedBefore(wobble).anomalous() ? 1 : 0;
            Case surge = generate(window, true, 30_000 + k);
            AnomalyFinding s = judgedNow(surge);
            if (s.anomalous()) {
                found++;
                // "from" and "to" must point the way the verdict does
                var e = s.evidence().orElseThrow();
                if ((e.anomalyLevel() - e.expectedLevel()) * (s.direction() == dev.omcp.core.analysis.anomaly.Direction.UP ? 1 : -1) <= 0) {
                    contradictions.add(surge.name() + ": " + s.note());
                }
                long off = Math.abs(s.onset().orElseThrow().toEpochMilli() - surge.onset());
                if (off <= 3 * surge.window().step().toMillis()) {
                    datedRight++;
                } else {
                    wrong.add(surge.name() + " misdated by " + off / 60_000 + " min: " + s.note());
                }
            } else {
                wrong.add(surge.name() + " missed: " + s.note());
            }
            foundBefore += judgedBefore(surge).anomalous() ? 1 : 0;
        }
        return new Tally(window, CASES, wobblesFired, wobblesBefore, CASES, found, foundBefore, datedRight);
    }

    @Test
    void longWindowsOnDailyTraffic_stayQuietOnWobbles_andFindSurges() {
        List<Tally> tallies = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        List<String> contradictions = new ArrayList<>();
        for (Duration window : List.of(Duration.ofHours(2), Duration.ofHours(4), Duration.ofHours(6), Duration.ofHours(12), Duration.ofDays(1))) {
            tallies.add(run(window, wrong, contradictions));
        }
        StringBuilder table = new StringBuilder("| Window | Wobbles fired (before) | Surges found (before) | Surges dated right |\n|---|---|---|---|\n");
        for (Tally t : tallies) {
            table.append(String.format(Locale.ROOT, "| %s | %d/%d (%d) | %d/%d (%d) | %d/%d |%n", Durations.format(t.window()),
                    t.wobblesFired(), t.wobbles(), t.wobblesFiredBefore(), t.surgesFound(), t.surges(), t.surgesFoundBefore(),
                    t.surgesDatedRight(), t.surgesFound()));
        }
        System.out.println(table);
        wrong.forEach(w -> System.out.println("- " + w));
        assertThat(contradictions).as("surges whose level lies on the wrong side of what was expected").isEmpty();
        for (Tally t : tallies) {
            assertThat((double) t.wobblesFired() / t.wobbles()).as("wobbles fired at %s%n%s", t.window(), table).isLessThanOrEqualTo(0.05);
            assertThat((double) t.surgesFound() / t.surges()).as("surges found at %s%n%s", t.window(), table).isGreaterThanOrEqualTo(0.9);
            assertThat((double) t.surgesDatedRight() / t.surgesFound()).as("surges dated within 3 steps at %s%n%s", t.window(), table)
                    .isGreaterThanOrEqualTo(0.9);
        }
    }
}
