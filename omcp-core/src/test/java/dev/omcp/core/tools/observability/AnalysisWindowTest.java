package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.AnomalyKind;
import dev.omcp.core.analysis.anomaly.DetectionSettings;
import dev.omcp.core.tools.observability.FakeMetricsBackend.Curve;
import dev.omcp.sdk.query.Series;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnalysisWindowTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    @Test
    void aShortWindowGetsAnHourOfBaselineAtThirtySecondSteps() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofMinutes(15), "window");
        assertThat(w.range().start()).isEqualTo(NOW.minus(Duration.ofMinutes(75)));
        assertThat(w.range().end()).isEqualTo(NOW);
        assertThat(w.windowStart()).isEqualTo(NOW.minus(Duration.ofMinutes(15)));
        assertThat(w.step()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aLongerWindowUnderTwoHoursGetsFourWindowsOfBaselineAndAStepThatKeepsAboutSixHundredPoints() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofMinutes(100), "window");
        assertThat(w.range().length()).isEqualTo(Duration.ofMinutes(500));
        assertThat(w.step()).isEqualTo(Duration.ofSeconds(50));
        assertThat(w.season()).isEmpty();
    }

    @Test
    void theShortestWindowStillHoldsEnoughPointsForAVerdict() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, AnalysisWindow.MIN_WINDOW, "window");
        assertThat(AnalysisWindow.MIN_WINDOW.dividedBy(w.step())).isGreaterThanOrEqualTo(3);
    }

    @Test
    void windowsOutsideTheRangeAreRefusedNamingTheArgumentAndTheRange() {
        assertThatThrownBy(() -> AnalysisWindow.ending(NOW, Duration.ofSeconds(90), "window"))
                .hasMessageContaining("window 90s is outside 2m..1d");
        assertThatThrownBy(() -> AnalysisWindow.ending(NOW, Duration.ofHours(25), "window"))
                .hasMessageContaining("window 25h is outside 2m..1d");
    }

    @Test
    void windowsUpToAnHourReadTheirBaselineOnly_withoutASeason() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofHours(1), "window");
        assertThat(w.range().length()).isEqualTo(Duration.ofHours(5));
        assertThat(w.baselineStart()).isEqualTo(NOW.minus(Duration.ofHours(5)));
        assertThat(w.season()).isEmpty();
    }

    @Test
    void aWindowOfTwoHoursAlsoReadsTwoDaysOfHistory_atAThousandPoints() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofHours(2), "window");
        assertThat(w.range().end()).isEqualTo(NOW);
        assertThat(w.range().length()).isEqualTo(Duration.ofDays(2).plusMinutes(30).plusHours(2));
        // 50.5 hours at 1,000 points, what the Prometheus connector returns at most
        assertThat(w.step()).isEqualTo(Duration.ofSeconds(182));
        assertThat(w.baselineStart()).isEqualTo(NOW.minus(Duration.ofHours(10)));
        assertThat(w.season()).contains(Duration.ofDays(1));
    }

    @Test
    void aDayWindowReadsThreeDaysAtAStepFineEnoughForAHalfHourIncident() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofDays(1), "window");
        assertThat(w.range().length()).isEqualTo(Duration.ofDays(3).plusMinutes(30));
        // 1,000 points; without the season it was 12 minutes, and 25 minutes were 2 points, under the dwell
        assertThat(w.step()).isEqualTo(Duration.ofSeconds(261));
        assertThat(Duration.ofMinutes(25).dividedBy(w.step())).isEqualTo(5);
        assertThat(w.baselineStart()).isEqualTo(NOW.minus(Duration.ofDays(5)));
        assertThat(w.season()).contains(Duration.ofDays(1));
    }

    /** Traffic-driven CPU: a daily curve of +-70 % round its level, lowest at midnight, highest at noon, 1 % noise. */
    private static final Curve DAILY_CPU = t -> 0.3 * (1 + 0.7 * Math.sin(2 * Math.PI * (t / 3_600_000.0 - 6) / 24))
            * (1 + 0.01 * FakeMetricsBackend.jitter(t));

    private static final Curve FLAT_CPU = t -> 0.3 * (1 + 0.01 * FakeMetricsBackend.jitter(t));

    private static Series sample(Curve curve, Instant from, Instant to, Duration step) {
        int n = (int) (Duration.between(from, to).dividedBy(step)) + 1;
        long[] t = new long[n];
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = from.toEpochMilli() + i * step.toMillis();
            x[i] = curve.at(t[i]);
        }
        return new Series(Map.of("job", "shop"), t, x);
    }

    private static AnomalyFinding judge(AnalysisWindow w, Series series) {
        AnalysisWindow.Judged judged = w.forDetection(series,
                CuratedMetricNames.detectionSettings(CuratedMetricNames.CPU_UTILIZATION).withWindow(w.window()));
        return new AnomalyDetector().detect(judged.series(), judged.settings());
    }

    @Test
    void withTwoDaysOfHistory_theDailyCurveIsNoAnomaly_whereTheBaselineBeforeTheWindowWouldCallItOne() {
        // 08:00, on the morning climb: the eight hours before the window were the night's trough
        Instant now = Instant.parse("2026-03-10T08:00:00Z");
        AnalysisWindow w = AnalysisWindow.ending(now, Duration.ofHours(2), "window");
        Series twoDays = sample(DAILY_CPU, w.range().start(), now, w.step());

        AnomalyFinding seasonal = judge(w, twoDays);
        assertThat(seasonal.anomalous()).as(seasonal.note()).isFalse();
        assertThat(seasonal.evidence().orElseThrow().method()).isEqualTo("seasonal");

        // the same curve read as before, ten hours only: the window climbs far above the night's median
        Series tenHours = sample(DAILY_CPU, w.baselineStart(), now, w.step());
        AnomalyFinding flat = new AnomalyDetector().detect(tenHours,
                CuratedMetricNames.detectionSettings(CuratedMetricNames.CPU_UTILIZATION).withWindow(w.window()));
        assertThat(flat.anomalous()).as(flat.note()).isTrue();
    }

    @Test
    void withTwoDaysOfHistory_aRiseTheDailyCurveDoesNotExplainIsFound() {
        Instant now = Instant.parse("2026-03-10T14:00:00Z");
        AnalysisWindow w = AnalysisWindow.ending(now, Duration.ofHours(2), "window");
        long incident = now.minus(Duration.ofMinutes(40)).toEpochMilli();
        Curve saturated = t -> DAILY_CPU.at(t) * (t >= incident ? 1.4 : 1);

        AnomalyFinding f = judge(w, sample(saturated, w.range().start(), now, w.step()));

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.kind()).contains(AnomalyKind.SEASONAL_DEVIATION);
        assertThat(f.onset().orElseThrow().toEpochMilli()).isBetween(incident - 120_000, incident + 120_000);
        // "from" is what the curve expected over the surge, 40 % under its level
        var e = f.evidence().orElseThrow();
        assertThat(e.anomalyLevel() / e.expectedLevel()).as(f.note()).isCloseTo(1.4, org.assertj.core.data.Offset.offset(0.03));
    }

    @Test
    void aSeriesWithoutTwoDaysOfHistory_isJudgedOnItsBaselineBeforeTheWindow_andTheNoteSaysWhy() {
        Instant now = Instant.parse("2026-03-10T14:00:00Z");
        AnalysisWindow w = AnalysisWindow.ending(now, Duration.ofHours(2), "window");
        // a Prometheus that has kept 20 hours
        Series young = sample(FLAT_CPU, now.minus(Duration.ofHours(20)), now, w.step());

        AnalysisWindow.Judged judged = w.forDetection(young, DetectionSettings.forMetric(CuratedMetricNames.CPU_UTILIZATION));

        // the window and the four windows before it, as without the season
        assertThat(judged.series().timeAt(0)).isBetween(w.baselineStart().toEpochMilli(),
                w.baselineStart().toEpochMilli() + w.step().toMillis() - 1);
        assertThat(judged.series().timeAt(judged.series().size() - 1)).isEqualTo(young.timeAt(young.size() - 1));
        assertThat(judged.settings().seasonPeriod()).contains(Duration.ofDays(1));
        AnomalyFinding f = new AnomalyDetector().detect(judged.series(), judged.settings().withWindow(w.window()));
        assertThat(f.anomalous()).as(f.note()).isFalse();
        assertThat(f.note()).contains("No seasonal baseline: a seasonal baseline needs two full periods (2d) of history");
    }

    /**
     * A service whose pods all crashed 40 minutes ago: Prometheus returns its request rate up to the
     * last scrape and nothing after (no gaps). Judged on its own last points, the window was the 15
     * minutes before the crash, and the draining traffic of those minutes read as the state now.
     */
    @Test
    void aSeriesThatStoppedBeforeTheWindow_isJudgedOnTheWindow_notOnItsOwnLastPoints() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofMinutes(15), "window");
        Instant stopped = NOW.minus(Duration.ofMinutes(40));
        Series read = sample(FLAT_CPU, w.range().start(), stopped, w.step());
        DetectionSettings settings = CuratedMetricNames.detectionSettings(CuratedMetricNames.CPU_UTILIZATION).withWindow(w.window());

        AnalysisWindow.Judged judged = w.forDetection(read, settings);
        AnomalyFinding f = new AnomalyDetector().detect(judged.series(), judged.settings());

        assertThat(judged.series().timeAt(judged.series().size() - 1)).isEqualTo(NOW.toEpochMilli());
        assertThat(f.status()).as(f.note()).isEqualTo(AnomalyFinding.Status.INSUFFICIENT_DATA);
        assertThat(f.note()).contains("holds no finite point: the series' last value is at " + Instant.ofEpochMilli(
                read.timeAt(read.size() - 1)));
    }

    @Test
    void withoutASeasonTheSeriesAndSettingsAreJudgedAsRead() {
        AnalysisWindow w = AnalysisWindow.ending(NOW, Duration.ofMinutes(15), "window");
        Series s = sample(FLAT_CPU, w.range().start(), NOW, w.step());
        DetectionSettings settings = DetectionSettings.forMetric(CuratedMetricNames.CPU_UTILIZATION);

        AnalysisWindow.Judged judged = w.forDetection(s, settings);

        assertThat(judged.series()).isSameAs(s);
        assertThat(judged.settings()).isSameAs(settings);
        assertThat(judged.settings().seasonPeriod()).isEqualTo(Optional.empty());
    }
}
