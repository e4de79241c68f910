package dev.omcp.core.analysis.anomaly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.sdk.query.Series;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An embedder builds {@link DetectionSettings} itself and may pass any positive season period: one
 * shorter than the 20 steps the seasonal baseline needs per period was skipped with a note that blamed
 * missing history, or, where the sampling is irregular, compared a point with its own neighbourhood;
 * and a short one over a long history was looked back through period by period, without bound.
 */
class SeasonPeriodBoundTest {
    private static final long T0 = Instant.parse("2025-03-10T00:00:00Z").toEpochMilli();
    private static final long STEP = 60_000;
    private final AnomalyDetector detector = new AnomalyDetector();
    private final DetectionSettings latency = DetectionSettings.of(MetricKind.LATENCY).withWindow(Duration.ofMinutes(30));

    @Test
    void aPeriodUnderAMillisecond_isSkippedWithANote_insteadOfLoopingForever() {
        Series s = series(noise(390, 100, 2, 1), STEP);
        AnomalyFinding f = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> detector.detect(s, latency.withSeason(Duration.ofNanos(500))));
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.evidence().orElseThrow().method()).isEqualTo("flat");
        assertThat(f.note()).contains("Seasonal baseline skipped: the season period (0.0005ms) is shorter than 20 steps of the"
                + " series (20m at its step of 1m)");
    }

    @Test
    void aPeriodOfAStepOrOfNineteenSteps_isSkippedWithANote_andOfTwentyStepsIsUsed() {
        // a level that repeats every 20 steps, so a seasonal baseline of that period has something to follow
        double[] x = noise(390, 100, 1, 2);
        for (int i = 0; i < x.length; i++) {
            x[i] += 5 * (i % 20);
        }
        for (Duration tooShort : new Duration[] {Duration.ofMinutes(1), Duration.ofMinutes(19), Duration.ofSeconds(1199)}) {
            AnomalyFinding f = detector.detect(series(x, STEP), latency.withSeason(tooShort));
            assertThat(f.evidence().orElseThrow().method()).as(tooShort.toString()).isEqualTo("flat");
            assertThat(f.note()).as(tooShort.toString()).contains("Seasonal baseline skipped: the season period");
        }
        AnomalyFinding twentySteps = detector.detect(series(x, STEP), latency.withSeason(Duration.ofMinutes(20)));
        assertThat(twentySteps.evidence().orElseThrow().method()).isEqualTo("seasonal");
        assertThat(twentySteps.anomalous()).as(twentySteps.note()).isFalse();
    }

    @Test
    void aShortPeriodOverALongHistory_looksBackAtMostTheBoundedNumberOfPeriods() {
        // 50,000 points at 1 s with a period of 20 s: 2,500 periods before every window point
        int n = 50_000;
        double[] x = noise(n, 100, 2, 3);
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = T0 + i * 1000L;
        }
        DetectionSettings settings = latency.withWindow(Duration.ofMinutes(10)).withSeason(Duration.ofSeconds(20));
        AnomalyFinding f = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> detector.detect(new Series(Map.of(), t, x), settings));
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.method()).isEqualTo("seasonal");
        assertThat(e.seasonPeriods()).isEqualTo(AnomalyDetector.MAX_SEASON_PERIODS);
    }

    private static double[] noise(int n, double level, double sigma, long seed) {
        Random rnd = new Random(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = level + rnd.nextGaussian() * sigma;
        }
        return x;
    }

    private static Series series(double[] x, long step) {
        long[] t = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            t[i] = T0 + i * step;
        }
        return new Series(Map.of(), t, x);
    }
}
