package dev.omcp.core.analysis.anomaly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.query.Series;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AnomalyDetectorTest {
    private static final long T0 = Instant.parse("2025-03-10T00:00:00Z").toEpochMilli();
    private static final long STEP = 60_000;
    private final AnomalyDetector detector = new AnomalyDetector();
    private final DetectionSettings latency = DetectionSettings.of(MetricKind.LATENCY).withWindow(Duration.ofMinutes(30));
    private final DetectionSettings requests = DetectionSettings.of(MetricKind.THROUGHPUT).withWindow(Duration.ofMinutes(30));

    @Test
    void defaultSensitivity_isMediumAndIsWhatTheDefaultSettingsCarry() {
        assertThat(AnomalyDetector.DEFAULT_SENSITIVITY).isEqualTo(Sensitivity.MEDIUM);
        assertThat(DetectionSettings.forMetric("latency_p99").sensitivity()).isEqualTo(AnomalyDetector.DEFAULT_SENSITIVITY);
    }

    @Test
    void stepUp_isAnomalousWithOnsetKindDirectionAndEvidence() {
        double[] x = noise(390, 100, 2, 1);
        for (int i = 370; i < 390; i++) {
            x[i] += 30;
        }
        AnomalyFinding f = detector.detect(series(x), latency);
        assertThat(f.anomalous()).isTrue();
        assertThat(f.direction()).isEqualTo(Direction.UP);
        assertThat(f.kind()).contains(AnomalyKind.STEP);
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 370 * STEP));
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.method()).isEqualTo("flat");
        assertThat(e.baselineMedian()).isCloseTo(100, org.assertj.core.data.Offset.offset(1.0));
        assertThat(e.windowMedian()).isGreaterThan(120);
        assertThat(e.baselineMad()).isGreaterThan(0);
        assertThat(f.score()).isGreaterThan(8);
    }

    /**
     * The demo's incident read with a one-hour window: 4 h of baseline and 1 h of window at 30 s, the
     * latency 20x higher for the last 25 minutes. Most of the window is still at the old level, so
     * its median is too; the verdict must tell where the latency went.
     */
    @Test
    void aStepShorterThanTheWindow_reportsTheStepsLevel_notTheWindowsMedian() {
        double[] x = noise(600, 0.022, 0.0005, 31);
        for (int i = 550; i < 600; i++) {
            x[i] = 0.45 + (x[i] - 0.022);
        }
        AnomalyFinding f = detector.detect(series(x, 30_000),
                DetectionSettings.of(MetricKind.LATENCY).withWindow(Duration.ofHours(1)));

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.kind()).contains(AnomalyKind.STEP);
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 550 * 30_000L));
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.windowMedian()).as("70 of the window's 120 points are before the step").isLessThan(0.025);
        assertThat(e.anomalyLevel()).isCloseTo(0.45, org.assertj.core.data.Offset.offset(0.002));
        assertThat(e.currentLevel()).isCloseTo(0.45, org.assertj.core.data.Offset.offset(0.002));
        assertThat(f.note()).matches("step up: \\d+\\.\\d sigma above the flat baseline \\(0\\.02\\d+ -> 0\\.45\\d+\\) since \\S+Z\\.");
        JsonObject evidence = f.toJson().getJsonObject("evidence");
        assertThat(evidence.getJsonNumber("anomalyLevel").doubleValue()).isEqualTo(e.anomalyLevel());
        assertThat(evidence.getJsonNumber("currentLevel").doubleValue()).isEqualTo(e.currentLevel());
    }

    @Test
    void aSpikeThatEnded_reportsTheSpikesLevel_andTheCurrentLevelBackAtTheBaseline() {
        double[] x = noise(390, 100, 2, 32);
        for (int i = 365; i < 371; i++) {
            x[i] += 40;
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.kind()).as(f.note()).contains(AnomalyKind.SPIKE);
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.anomalyLevel()).isCloseTo(140, org.assertj.core.data.Offset.offset(3.0));
        assertThat(e.currentLevel()).isCloseTo(100, org.assertj.core.data.Offset.offset(3.0));
        assertThat(f.note()).matches("spike up: .* \\(\\d+\\.?\\d* -> 1[34]\\d\\.?\\d*\\) since \\S+Z, back at (99|10[0-2])\\.?\\d* now\\.");
    }

    @Test
    void twoBurstsApart_reportTheLevelOfTheBursts_notOfTheQuietStretchBetweenThem() {
        double[] x = noise(390, 100, 2, 33);
        for (int i = 362; i < 366; i++) {
            x[i] += 40;
        }
        for (int i = 378; i < 382; i++) {
            x[i] += 40;
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.kind()).as(f.note()).contains(AnomalyKind.SPIKE);
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 362 * STEP));
        // onset to the second burst's end spans 20 points, 12 of them quiet: their median would be the baseline
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isGreaterThan(130);
    }

    @Test
    void aStepAfterALongLeadIn_isDatedAtTheStep_andReportsTheStepsLevel_notOneDilutedByTheLeadIn() {
        // 19 minutes 2.6 sigma up, then 10 minutes 20 sigma up: the lead-in is not half-way to the
        // step, so it is no part of it (the onset once reached back over it, to minute 361)
        double[] x = noise(390, 100, 2, 39);
        for (int i = 361; i < 380; i++) {
            x[i] = 105.2;
        }
        for (int i = 380; i < 390; i++) {
            x[i] += 40;
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 380 * STEP));
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isCloseTo(140, org.assertj.core.data.Offset.offset(3.0));
    }

    /**
     * The demo's memory read with {@code window: 1h}: 4 h of baseline and 1 h of window at 30 s, a
     * working set that drifts by a 3 % sine (period 2 pi hours) with {@code noise}, and +35 % from
     * 25 minutes before the window's end (point 550), reached over {@code rise} more points. Near
     * the sine's crest (phase 1.2-1.6 at the step, where the demo's clock put it at 04:35 or 10:35
     * UTC) the drift has been 2 sigma or more above the flat baseline's median for half an hour.
     */
    private static double[] memoryOnADrift(double phaseAtStep, int rise, double noise, long seed) {
        double[] x = noise(600, 0, noise, seed);
        for (int i = 0; i < 600; i++) {
            double hours = (i - 550) * HALF_MINUTE / 3_600_000.0;
            double incident = i < 550 ? 0 : Math.min(1, (i - 549) / (double) (rise + 1));
            x[i] = 200e6 * (1 + 0.03 * Math.sin(phaseAtStep + hours) + x[i]) + 200e6 * 0.35 * incident;
        }
        return x;
    }

    private final DetectionSettings memoryOverAnHour = DetectionSettings.of(MetricKind.SATURATION).withWindow(Duration.ofHours(1));

    @Test
    void aLargeStepOnARisingDrift_isDatedAtTheStep_notWhereTheDriftCrossedHalfTheThreshold() {
        for (double phase : new double[] {1.2, 1.6}) {
            for (long seed = 62; seed <= 65; seed++) {
                AnomalyFinding f = detector.detect(series(memoryOnADrift(phase, 0, 0.01, seed), HALF_MINUTE), memoryOverAnHour);

                assertThat(f.kind()).as(f.note()).contains(AnomalyKind.STEP);
                // walking back over every point T/2 off dated these 5-15 points (2.5-7.5 minutes) early
                assertThat(f.onset().orElseThrow().toEpochMilli() - (T0 + 550 * HALF_MINUTE)).as("phase %s, seed %d: %s", phase, seed,
                        f.note()).isBetween(-2 * HALF_MINUTE, 2 * HALF_MINUTE);
            }
        }
    }

    @Test
    void aLargeStepThatTookMinutesToBuild_isDatedWhereItsRiseBegan_notWhereTheDriftCrossedHalfTheThreshold() {
        // the demo's frontend: three pods, so the noise of their sum is 1 % / sqrt(3) and the drift
        // stands out more (the old walk went back 8-50 minutes); the incident takes 4 minutes (8
        // points) to reach full strength, and the onset is where that rise left the drift, not half-way up
        for (double phase : new double[] {1.2, 1.6}) {
            for (long seed = 62; seed <= 65; seed++) {
                AnomalyFinding f = detector.detect(series(memoryOnADrift(phase, 8, 0.0058, seed), HALF_MINUTE), memoryOverAnHour);

                assertThat(f.kind()).as(f.note()).contains(AnomalyKind.STEP);
                assertThat(f.onset().orElseThrow().toEpochMilli() - (T0 + 550 * HALF_MINUTE)).as("phase %s, seed %d: %s", phase, seed,
                        f.note()).isBetween(0L, 2 * HALF_MINUTE);
                // the level is the step's, not one pulled down by the lead-in
                assertThat(f.evidence().orElseThrow().anomalyLevel()).as(f.note()).isGreaterThan(1.3 * 200e6);
            }
        }
    }

    @Test
    void aLargeDropOnAFallingDrift_isDatedAtTheDrop() {
        // the mirror image, judged two-sided: the trend line through the baseline's last 2 hours
        // follows the drift, but where the sine bends (phase 5.6-6.0) the drift falls away from the
        // line for half an hour before the drop, and the old walk went back 3.5-7.5 minutes over it
        for (double phase : new double[] {5.6, 6.0}) {
            for (long seed = 62; seed <= 65; seed++) {
                double[] x = memoryOnADrift(phase, 0, 0.0058, seed);
                for (int i = 0; i < 600; i++) {
                    x[i] = 400e6 - x[i];
                }
                AnomalyFinding f = detector.detect(series(x, HALF_MINUTE),
                        DetectionSettings.of(MetricKind.OTHER).withWindow(Duration.ofHours(1)));

                assertThat(f.direction()).as(f.note()).isEqualTo(Direction.DOWN);
                assertThat(f.evidence().orElseThrow().method()).isEqualTo("trend");
                assertThat(f.onset().orElseThrow().toEpochMilli() - (T0 + 550 * HALF_MINUTE)).as("phase %s, seed %d: %s", phase, seed,
                        f.note()).isBetween(-2 * HALF_MINUTE, 2 * HALF_MINUTE);
            }
        }
    }

    @Test
    void aSmallStep_stillReachesBackOverPointsHalfWayToIt() {
        // 5 points 2.5 sigma up, then 4.5 sigma up: the first five are as far from the baseline as
        // half the step, part of it by the rule, as they were when every point T/2 off was
        double[] x = noise(390, 100, 2, 40);
        for (int i = 365; i < 390; i++) {
            x[i] = 100 + 2 * (i < 370 ? 2.5 : 4.5) + (i % 2 == 0 ? 0.2 : -0.2);
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.onset()).as(f.note()).contains(Instant.ofEpochMilli(T0 + 365 * STEP));
    }

    @Test
    void anEscalation_isDatedFromItsFirstStage_whichIsAnAnomalyOfItsOwn() {
        // 20 minutes 6 sigma up, then 30 sigma up: the first stage is not half-way to the second,
        // but it held beyond the threshold long enough to be an anomaly by itself
        double[] x = noise(390, 100, 2, 42);
        for (int i = 360; i < 390; i++) {
            x[i] += i < 380 ? 12 : 60;
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.kind()).as(f.note()).contains(AnomalyKind.STEP);
        assertThat(f.onset()).as(f.note()).contains(Instant.ofEpochMilli(T0 + 360 * STEP));
    }

    @Test
    void anEscalation_scoresAndReportsTheLevelOfItsWorstStage_notTheMedianOfBothStages() {
        // the same escalation: 20 minutes 6 sigma up, then 30 sigma up. Measured whole, the median of
        // the run (20 points at 6, 10 at 30) scored 6 and said the latency went to 112, while it is at 160
        double[] x = noise(390, 100, 2, 42);
        for (int i = 360; i < 390; i++) {
            x[i] += i < 380 ? 12 : 60;
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.onset()).as(f.note()).contains(Instant.ofEpochMilli(T0 + 360 * STEP));
        assertThat(f.score()).as(f.note()).isGreaterThan(25);
        assertThat(f.evidence().orElseThrow().anomalyLevel()).as(f.note()).isCloseTo(160, org.assertj.core.data.Offset.offset(3.0));
        // more deviation never scores less: the first stage alone, and the escalation
        double[] firstStageOnly = noise(390, 100, 2, 42);
        for (int i = 360; i < 390; i++) {
            firstStageOnly[i] += 12;
        }
        assertThat(f.score()).isGreaterThan(detector.detect(series(firstStageOnly), latency).score());
    }

    @Test
    void aShortStepAfterALongLeadIn_isMeasuredFromItsOnset_soItMeetsTheMinimumChange() {
        // 20 minutes 3.3-3.7 sigma (+7 %) up, then +40 %: the hysteresis joins them into one run,
        // whose median moved the latency by 7 %, under a 20 % minimum; from the onset it moved 40 %.
        // Measured whole, the level test found nothing and the ramp test called it a ramp to 123
        // from the window's start
        double[] x = noise(390, 100, 2, 43);
        for (int i = 360; i < 390; i++) {
            x[i] = i < 380 ? 107 + (i % 2 == 0 ? 0.4 : -0.4) : 140 + (x[i] - 100);
        }
        AnomalyFinding f = detector.detect(series(x), latency.withMinimumRelativeChange(0.2));

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.onset()).as(f.note()).contains(Instant.ofEpochMilli(T0 + 380 * STEP));
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isCloseTo(140, org.assertj.core.data.Offset.offset(3.0));
        assertThat(f.score()).as(f.note()).isGreaterThan(15);
    }

    @Test
    void aNormalVerdict_hasNoAnomalyLevel_butSaysWhereTheSeriesIsNow() {
        AnomalyFinding f = detector.detect(series(noise(390, 100, 2, 34)), latency);

        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isNaN();
        assertThat(f.evidence().orElseThrow().currentLevel()).isCloseTo(100, org.assertj.core.data.Offset.offset(4.0));
        assertThat(f.toJson().getJsonObject("evidence").keySet()).doesNotContain("anomalyLevel").contains("currentLevel");
    }

    @Test
    void latencyDrop_isIgnoredBecauseOnlyIncreasesMatter() {
        double[] x = noise(390, 100, 2, 2);
        for (int i = 370; i < 390; i++) {
            x[i] -= 30;
        }
        AnomalyFinding f = detector.detect(series(x), latency);
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.direction()).isEqualTo(Direction.NONE);
    }

    @Test
    void requestRateDrop_isAnomalousBecauseBothDirectionsMatter() {
        double[] x = noise(390, 1000, 20, 3);
        for (int i = 365; i < 390; i++) {
            x[i] -= 400;
        }
        AnomalyFinding f = detector.detect(series(x), requests);
        assertThat(f.anomalous()).isTrue();
        assertThat(f.direction()).isEqualTo(Direction.DOWN);
        assertThat(f.kind()).contains(AnomalyKind.STEP);
    }

    @Test
    void singlePointSpike_doesNotFire_theDwellRule() {
        double[] x = noise(390, 100, 2, 4);
        x[380] = 10_000;
        AnomalyFinding f = detector.detect(series(x), latency);
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.note()).contains("no sustained deviation");
    }

    @Test
    void shortBurstThatEnded_isASpike() {
        double[] x = noise(390, 100, 2, 5);
        for (int i = 365; i < 370; i++) {
            x[i] += 40;
        }
        AnomalyFinding f = detector.detect(series(x), latency);
        assertThat(f.kind()).contains(AnomalyKind.SPIKE);
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 365 * STEP));
    }

    @Test
    void slowRampBelowTheLevelThreshold_isFoundByTheTrendTest() {
        double[] x = slowRamp(6);
        AnomalyFinding f = detector.detect(series(x), latency.withWindow(Duration.ofHours(2)));
        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.kind()).contains(AnomalyKind.RAMP);
        assertThat(f.score()).as("ends below the level threshold").isLessThan(Sensitivity.MEDIUM.levelThreshold());
        assertThat(f.evidence().orElseThrow().trendSlopePerHour()).isGreaterThan(0);
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 360 * STEP));
        // a ramp's level is where it has climbed to (1.062 at the end), not the median of the climb (1.031)
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.anomalyLevel()).isCloseTo(1.062, org.assertj.core.data.Offset.offset(0.012));
        assertThat(e.anomalyLevel()).isGreaterThan(e.windowMedian() + 0.015);
    }

    @Test
    void aStepThatKeepsClimbing_isARampWhoseLevelIsWhereItGot() {
        // 30 minutes of window: flat for 10, then a climb of 3 sigma a minute for 20
        double[] x = noise(390, 100, 2, 35);
        for (int i = 370; i < 390; i++) {
            x[i] += 6 * (i - 369);
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.kind()).as(f.note()).contains(AnomalyKind.RAMP);
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isCloseTo(220, org.assertj.core.data.Offset.offset(12.0));
    }

    @Test
    void slowRampWithoutTrendDetection_isNotFound() {
        DetectionSettings other = DetectionSettings.of(MetricKind.OTHER).withWindow(Duration.ofHours(2));
        assertThat(detector.detect(series(slowRamp(6)), other).anomalous()).isFalse();
    }

    /**
     * 75 minutes of a request rate at 15 s climbing 8 % an hour, as a shop's traffic does every
     * morning, with a short burst in the window that is only +2 sigma above the climb: against the
     * flat median of the hour before it the burst looks like 5 sigma.
     */
    private static double[] morningTraffic() {
        double[] x = noise(300, 0, 1.5, 21);
        for (int i = 0; i < 300; i++) {
            x[i] += 110 + 8.8 * i / 240.0;
        }
        for (int i = 250; i < 256; i++) {
            x[i] += 3;
        }
        return x;
    }

    private final DetectionSettings requestsOverAQuarter =
            DetectionSettings.of(MetricKind.THROUGHPUT).withWindow(Duration.ofMinutes(15));

    @Test
    void morningTrafficClimb_isJudgedAgainstTheBaselinesTrend_notItsMedian() {
        AnomalyFinding f = detector.detect(series(morningTraffic(), 15_000), requestsOverAQuarter);

        assertThat(f.status()).as(f.note()).isEqualTo(AnomalyFinding.Status.NORMAL);
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.method()).isEqualTo("trend");
        // the expectation is the climb extended over the window, above every baseline value's median
        assertThat(e.baselineMedian()).isGreaterThan(118);
    }

    @Test
    void surgeOnTopOfAClimb_isStillAnomalous_measuredFromTheClimb() {
        double[] x = morningTraffic();
        for (int i = 276; i < 300; i++) {
            x[i] += 12;
        }
        AnomalyFinding f = detector.detect(series(x, 15_000), requestsOverAQuarter);

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.direction()).isEqualTo(Direction.UP);
        assertThat(f.kind()).contains(AnomalyKind.STEP);
        assertThat(f.onset().orElseThrow().toEpochMilli() - (T0 + 276 * 15_000L)).isBetween(-30_000L, 30_000L);
        assertThat(f.note()).contains("trend baseline");
    }

    @Test
    void dropDuringAClimb_isAnomalousEvenThoughItStaysAboveTheBaselineMedian() {
        double[] x = morningTraffic();
        for (int i = 276; i < 300; i++) {
            x[i] -= 10;
        }
        AnomalyFinding f = detector.detect(series(x, 15_000), requestsOverAQuarter);

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.direction()).isEqualTo(Direction.DOWN);
    }

    @Test
    void latencyClimbingThroughTheBaseline_isNotExplainedAwayByItsTrend() {
        // a rising latency is a symptom, not the time of day: the flat median stays its yardstick
        DetectionSettings latencyOverAQuarter = DetectionSettings.of(MetricKind.LATENCY).withWindow(Duration.ofMinutes(15));
        Series climb = series(morningTraffic(), 15_000);

        AnomalyFinding asLatency = detector.detect(climb, latencyOverAQuarter);
        AnomalyFinding asTraffic = detector.detect(climb, requestsOverAQuarter);

        assertThat(asLatency.evidence().orElseThrow().method()).isEqualTo("flat");
        assertThat(asTraffic.evidence().orElseThrow().method()).isEqualTo("trend");
        assertThat(asLatency.evidence().orElseThrow().baselineMedian()).isLessThan(asTraffic.evidence().orElseThrow().baselineMedian() - 3);
    }

    @Test
    void flatNoisyTraffic_keepsTheFlatBaseline() {
        AnomalyFinding f = detector.detect(series(noise(300, 110, 3, 23), 15_000), requestsOverAQuarter);

        assertThat(f.evidence().orElseThrow().method()).isEqualTo("flat");
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
    }

    /** A request rate judged as the tools judge it over an hour: two-sided, no ramp test, 20 % relative minimum. */
    private final DetectionSettings requestsOverAnHour = DetectionSettings.of(MetricKind.THROUGHPUT)
            .withWindow(Duration.ofHours(1)).withMinimumRelativeChange(0.2);

    private static final long HALF_MINUTE = 30_000;

    /**
     * What {@code detect_anomalies} reads for {@code window: 1h}: a 4 h baseline and the hour at
     * 30 s (600 points) of a day's traffic curve, 1000 x (1 - 0.35 sin), whose trough falls on the
     * window's start, with 1 % noise. The curve bends through the baseline: a straight line through
     * all 4 h runs on downwards and undershoots the window's climb by 10-20 %, a line through the
     * last 2 h by a few per cent.
     */
    private static double[] curvedDay(long seed) {
        double[] x = noise(600, 0, 10, seed);
        for (int i = 0; i < 600; i++) {
            double hours = i * HALF_MINUTE / 3_600_000.0;
            x[i] += 1000 * (1 - 0.35 * Math.sin(2 * Math.PI * (hours + 2) / 24));
        }
        return x;
    }

    @Test
    void aSmallWobbleOnACurvedDay_overAnHour_isNoAnomaly() {
        double[] x = curvedDay(42);
        for (int i = 540; i < 600; i++) {
            x[i] *= 1.08;
        }
        AnomalyFinding f = detector.detect(series(x, HALF_MINUTE), requestsOverAnHour);

        // the line through the whole baseline expected the window 10-20 % lower: +8 % on top crossed the 20 % minimum
        assertThat(f.anomalous()).as(f.note()).isFalse();
        assertThat(f.evidence().orElseThrow().method()).isEqualTo("trend");
    }

    @Test
    void aSurgeOnACurvedDay_overAnHour_isAnomalousSinceItStarted() {
        double[] x = curvedDay(43);
        for (int i = 520; i < 600; i++) {
            x[i] *= 1.45;
        }
        AnomalyFinding f = detector.detect(series(x, HALF_MINUTE), requestsOverAnHour);

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.direction()).isEqualTo(Direction.UP);
        assertThat(f.kind()).contains(AnomalyKind.STEP);
        // a line through the whole baseline ran below the climb before the surge, and the onset reached back 6 minutes over it
        assertThat(f.onset().orElseThrow().toEpochMilli() - (T0 + 520 * HALF_MINUTE)).as(f.note())
                .isBetween(-3 * HALF_MINUTE, 3 * HALF_MINUTE);
        // the level is the surge's, measured from the curve: about 1.45 x the climb's level there
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isBetween(1.3 * x[560] / 1.45, 1.6 * x[560] / 1.45);
    }

    @Test
    void theTrendLine_isFittedToTheBaselinesLastTwoHours() {
        AnomalyFinding overAnHour = detector.detect(series(curvedDay(44), HALF_MINUTE), requestsOverAnHour);

        // 4 h of baseline at 30 s: the line and its scale come from the last 240 points
        assertThat(overAnHour.evidence().orElseThrow().method()).isEqualTo("trend");
        assertThat(overAnHour.evidence().orElseThrow().baselinePoints()).isEqualTo(240);
    }

    @Test
    void theDefaultWindowsHourOfBaseline_isFittedWhole() {
        AnomalyFinding f = detector.detect(series(morningTraffic(), 15_000), requestsOverAQuarter);

        // shorter than the 2 h span: all 240 points, as before the span existed
        assertThat(f.evidence().orElseThrow().method()).isEqualTo("trend");
        assertThat(f.evidence().orElseThrow().baselinePoints()).isEqualTo(240);
    }

    @Test
    void aCoarseStep_stillFitsTheLineToTheFewestPointsAVerdictNeeds() {
        // a 1 h window over 10 h at 10 minutes: the last 2 h of baseline hold 12 points, fewer than 20
        double[] x = noise(60, 0, 1, 44);
        for (int i = 0; i < 60; i++) {
            x[i] += 100 + 2.0 * i;
        }
        AnomalyFinding f = detector.detect(series(x, 600_000), requestsOverAnHour);

        assertThat(f.evidence().orElseThrow().method()).isEqualTo("trend");
        assertThat(f.evidence().orElseThrow().baselinePoints()).isEqualTo(AnomalyDetector.MIN_BASELINE_POINTS);
        assertThat(f.anomalous()).as(f.note()).isFalse();
    }

    @Test
    void aWindowLongerThanSixHours_keepsTheLineThroughTheWholeBaseline() {
        // an 8 h window after 32 h of a steady climb at 5 minutes: past 6 h the line comes from the
        // whole baseline, which for the tools' long windows spans more than a day and averages the
        // daily curve out, where a line through its last 2 h would be extended past the curve's turn
        double[] x = noise(480, 0, 1, 45);
        for (int i = 0; i < 480; i++) {
            x[i] += 100 + 0.1 * i;
        }
        AnomalyFinding f = detector.detect(series(x, 300_000),
                requestsOverAnHour.withWindow(Duration.ofHours(8)));

        assertThat(f.evidence().orElseThrow().method()).isEqualTo("trend");
        assertThat(f.evidence().orElseThrow().baselinePoints()).isEqualTo(384);
        assertThat(f.anomalous()).as(f.note()).isFalse();
    }

    /**
     * Both directions with the ramp test (an embedder's settings): the falling direction, tried last,
     * measured no trend and overwrote the rising one's slope with NaN, so the ramp reported none.
     */
    @Test
    void aRampJudgedInBothDirections_reportsTheSlopeOfTheDirectionThatFoundIt() {
        DetectionSettings bothWithRamps = new DetectionSettings(Sidedness.BOTH, true, Duration.ofHours(2), java.util.Optional.empty(),
                Sensitivity.MEDIUM, 0, 0, false);
        AnomalyFinding up = detector.detect(series(slowRamp(6)), bothWithRamps);
        AnomalyFinding upOnly = detector.detect(series(slowRamp(6)), latency.withWindow(Duration.ofHours(2)));

        assertThat(up.kind()).as(up.note()).contains(AnomalyKind.RAMP);
        assertThat(up.direction()).isEqualTo(Direction.UP);
        assertThat(up.evidence().orElseThrow().trendSlopePerHour())
                .isGreaterThan(0)
                .isEqualTo(upOnly.evidence().orElseThrow().trendSlopePerHour());

        double[] falling = slowRamp(6);
        for (int i = 0; i < falling.length; i++) {
            falling[i] = 2 - falling[i];
        }
        AnomalyFinding down = detector.detect(series(falling), bothWithRamps);
        assertThat(down.kind()).as(down.note()).contains(AnomalyKind.RAMP);
        assertThat(down.direction()).isEqualTo(Direction.DOWN);
        assertThat(down.evidence().orElseThrow().trendSlopePerHour()).isLessThan(0);
    }

    /** 6 h flat, then 2 h climbing to about 3.1 sigma: below what the level test needs. */
    private static double[] slowRamp(long seed) {
        double[] x = noise(480, 1.0, 0.02, seed);
        for (int i = 360; i < 480; i++) {
            x[i] += 0.062 * (i - 359) / 120.0;
        }
        return x;
    }

    @Test
    void nanGaps_areSkippedNotCountedAsZero() {
        double[] x = noise(390, 100, 2, 7);
        for (int i = 0; i < 390; i += 3) {
            x[i] = Double.NaN;
        }
        x[5] = Double.POSITIVE_INFINITY;
        AnomalyFinding f = detector.detect(series(x), latency);
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.evidence().orElseThrow().baselineMedian()).isCloseTo(100, org.assertj.core.data.Offset.offset(1.0));
        assertThat(f.evidence().orElseThrow().windowPoints()).isEqualTo(20);
    }

    @Test
    void constantSeries_usesTheScaleFloorInsteadOfDividingByZero() {
        double[] x = new double[390];
        java.util.Arrays.fill(x, 50);
        AnomalyFinding flat = detector.detect(series(x), latency);
        assertThat(flat.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(flat.score()).isZero();
        assertThat(flat.evidence().orElseThrow().scaleSource()).isEqualTo("floor");
        assertThat(flat.evidence().orElseThrow().scale()).isEqualTo(0.5); // 1 % of the level

        for (int i = 375; i < 390; i++) {
            x[i] = 55; // +10 %: 10 floor-sigmas
        }
        AnomalyFinding stepped = detector.detect(series(x), latency);
        assertThat(stepped.anomalous()).isTrue();
        assertThat(stepped.score()).isCloseTo(10, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void mostlyZeroErrorRate_fallsBackToTheMeanAbsoluteDeviation() {
        double[] x = new double[390];
        for (int i = 0; i < 390; i += 7) {
            x[i] = 0.01;
        }
        AnomalyFinding f = detector.detect(series(x), DetectionSettings.of(MetricKind.ERRORS).withWindow(Duration.ofMinutes(30)));
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.evidence().orElseThrow().baselineMad()).isZero();
        assertThat(f.evidence().orElseThrow().scaleSource()).isEqualTo("mean-abs-dev");
    }

    @Test
    void minimumChange_suppressesTinyAbsoluteMovesOfAFlatZeroSeries() {
        double[] x = new double[390];
        for (int i = 380; i < 390; i++) {
            x[i] = 0.0001;
        }
        DetectionSettings errors = DetectionSettings.of(MetricKind.ERRORS).withWindow(Duration.ofMinutes(30));
        assertThat(detector.detect(series(x), errors).anomalous()).isTrue();
        assertThat(detector.detect(series(x), errors.withMinimumChange(0.01)).anomalous()).isFalse();
    }

    @Test
    void relativeMinimumChange_leavesASmallShareOfTheLevelUnreported_andSaysWhy() {
        // traffic at 1000/s with 0.2 % noise: +6 % is 6 sigma (of the 1 % scale floor), but a wobble, not an incident
        double[] x = noise(390, 1000, 2, 36);
        for (int i = 370; i < 390; i++) {
            x[i] += 60;
        }
        assertThat(detector.detect(series(x), requests).anomalous()).as("no relative minimum").isTrue();

        AnomalyFinding f = detector.detect(series(x), requests.withMinimumRelativeChange(0.2));

        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.score()).as("how close it came in sigmas is still told").isGreaterThan(Sensitivity.MEDIUM.levelThreshold());
        assertThat(f.note()).matches("no anomaly: a deviation of \\d+\\.\\d sigma held \\((999\\.\\d|1000) -> 106\\d\\.?\\d*, \\+6\\.\\d %\\), but it is "
                + "smaller than the minimum change worth reporting \\(20\\.0 % of the expected level\\)\\.");
    }

    @Test
    void relativeMinimumChange_stillReportsASurgeOrADropOfFortyPerCent() {
        DetectionSettings tolerant = requests.withMinimumRelativeChange(0.2);
        for (int sign : new int[] {1, -1}) {
            double[] x = noise(390, 1000, 20, 37);
            for (int i = 370; i < 390; i++) {
                x[i] += sign * 400;
            }
            AnomalyFinding f = detector.detect(series(x), tolerant);

            assertThat(f.anomalous()).as(f.note()).isTrue();
            assertThat(f.direction()).isEqualTo(sign > 0 ? Direction.UP : Direction.DOWN);
            assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 370 * STEP));
            assertThat(f.evidence().orElseThrow().anomalyLevel()).isCloseTo(1000 + sign * 400, org.assertj.core.data.Offset.offset(15.0));
        }
    }

    @Test
    void absoluteAndRelativeMinimums_mustBothBeMet() {
        // latency 10 ms -> 16 ms: +60 %, but only 6 ms
        double[] x = noise(390, 0.010, 0.0002, 38);
        for (int i = 370; i < 390; i++) {
            x[i] += 0.006;
        }
        DetectionSettings relative = latency.withMinimumRelativeChange(0.2);
        assertThat(detector.detect(series(x), relative).anomalous()).isTrue();
        AnomalyFinding both = detector.detect(series(x), relative.withMinimumChange(0.010));
        assertThat(both.anomalous()).isFalse();
        // the absolute minimum also floors the scale: 6 ms is 6 / (10 / 3.5) = 2.1 sigma, short of the threshold
        assertThat(both.score()).isCloseTo(2.1, org.assertj.core.data.Offset.offset(0.1));
        assertThat(both.evidence().orElseThrow().scaleSource()).isEqualTo("minimum-change");

        // latency 100 ms -> 115 ms: 15 ms, but only +15 %
        double[] y = noise(390, 0.100, 0.0002, 38);
        for (int i = 370; i < 390; i++) {
            y[i] += 0.015;
        }
        DetectionSettings absolute = latency.withMinimumChange(0.010);
        assertThat(detector.detect(series(y), absolute).anomalous()).isTrue();
        AnomalyFinding bothAgain = detector.detect(series(y), absolute.withMinimumRelativeChange(0.2));
        assertThat(bothAgain.anomalous()).isFalse();
        assertThat(bothAgain.note()).contains("(0.01000 and 20.0 % of the expected level)");
    }

    @Test
    void relativeMinimumChange_appliesToARampsEnd() {
        // the slow ramp climbs 6 % above its level
        DetectionSettings twoHours = latency.withWindow(Duration.ofHours(2));
        assertThat(detector.detect(series(slowRamp(6)), twoHours.withMinimumRelativeChange(0.05)).anomalous()).isTrue();
        AnomalyFinding f = detector.detect(series(slowRamp(6)), twoHours.withMinimumRelativeChange(0.1));
        assertThat(f.anomalous()).isFalse();
        assertThat(f.note()).contains("smaller than the minimum change worth reporting (10.0 % of the expected level)");
    }

    @Test
    void shortSeries_saysNotEnoughDataInsteadOfGuessing() {
        AnomalyFinding f = detector.detect(series(noise(35, 100, 2, 8)), latency);
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.INSUFFICIENT_DATA);
        assertThat(f.note()).contains("5 finite points").contains("at least 20");
        assertThat(f.score()).isNaN();
        assertThat(f.evidence()).isEmpty();
        JsonObject json = f.toJson();
        assertThat(json.containsKey("anomalous")).isFalse();
        assertThat(json.containsKey("score")).isFalse();
        assertThat(json.getString("status")).isEqualTo("insufficient_data");
    }

    @Test
    void windowWithTooFewFinitePoints_isInsufficientData() {
        double[] x = noise(390, 100, 2, 9);
        for (int i = 360; i < 390; i++) {
            x[i] = i == 370 || i == 380 ? x[i] : Double.NaN;
        }
        AnomalyFinding f = detector.detect(series(x), latency);
        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.INSUFFICIENT_DATA);
        assertThat(f.note()).contains("window holds 2 finite points; at least 3 are needed");
    }

    @Test
    void emptyAndAllGapSeries_areInsufficientData() {
        assertThat(detector.detect(new Series(Map.of(), new long[0], new double[0]), latency).note()).contains("no points");
        double[] gaps = new double[100];
        java.util.Arrays.fill(gaps, Double.NaN);
        assertThat(detector.detect(series(gaps), latency).note()).contains("only gaps");
    }

    @Test
    void stepThatBeganJustBeforeTheWindow_datesItsOnsetInTheBaselineTail() {
        double[] x = noise(390, 100, 2, 10);
        for (int i = 356; i < 390; i++) {
            x[i] += 30;
        }
        AnomalyFinding f = detector.detect(series(x), latency);
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 356 * STEP));
    }

    @Test
    void dipAgainstTheDailyCurve_isFoundByTheSeasonalBaselineButHiddenFromTheFlatOne() {
        long step = 300_000;
        int perDay = 288;
        Random rnd = new Random(11);
        int n = 3 * perDay + 100;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 500 + 300 * Math.sin(2 * Math.PI * i / perDay) + rnd.nextGaussian() * 5;
        }
        DetectionSettings settings = DetectionSettings.of(MetricKind.THROUGHPUT).withWindow(Duration.ofHours(1));
        DetectionSettings daily = settings.withSeason(Duration.ofDays(1));
        AnomalyFinding clean = detector.detect(series(x, step), daily);
        assertThat(clean.status()).as(clean.note()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(clean.evidence().orElseThrow().method()).isEqualTo("seasonal");
        assertThat(clean.evidence().orElseThrow().seasonPeriods()).isEqualTo(3);

        for (int i = n - 8; i < n; i++) {
            x[i] -= 60; // 12 noise sigmas, but small against the 300-wide daily swing
        }
        AnomalyFinding dip = detector.detect(series(x, step), daily);
        assertThat(dip.anomalous()).as(dip.note()).isTrue();
        assertThat(dip.kind()).contains(AnomalyKind.SEASONAL_DEVIATION);
        assertThat(dip.direction()).isEqualTo(Direction.DOWN);
        assertThat(dip.onset()).contains(Instant.ofEpochMilli(T0 + (n - 8) * step));
        assertThat(detector.detect(series(x, step), settings).anomalous()).as("flat baseline").isFalse();
    }

    @Test
    void seasonRequestedWithLessThanTwoPeriodsOfHistory_fallsBackToFlatAndSaysSo() {
        AnomalyFinding f = detector.detect(series(noise(390, 100, 2, 12)), latency.withSeason(Duration.ofDays(1)));
        assertThat(f.evidence().orElseThrow().method()).isEqualTo("flat");
        assertThat(f.note()).contains("seasonal baseline needs two full periods (2d)");
    }

    @Test
    void unsortedTimestamps_areSortedBeforeJudging() {
        double[] x = noise(390, 100, 2, 13);
        for (int i = 370; i < 390; i++) {
            x[i] += 30;
        }
        long[] t = new long[390];
        for (int i = 0; i < 390; i++) {
            t[i] = T0 + i * STEP;
        }
        // swap two baseline points
        long tt = t[10];
        t[10] = t[11];
        t[11] = tt;
        double xx = x[10];
        x[10] = x[11];
        x[11] = xx;
        assertThat(detector.detect(new Series(Map.of(), t, x), latency).anomalous()).isTrue();
    }

    @Test
    void descendingTimestamps_areJudgedOnTheWindowBeforeTheLatestTime_notBeforeTheLastPointInTheArray() {
        double[] x = noise(390, 100, 2, 13);
        for (int i = 370; i < 390; i++) {
            x[i] += 30;
        }
        AnomalyFinding ascending = detector.detect(series(x), latency);
        long[] t = new long[390];
        double[] reversed = new double[390];
        for (int i = 0; i < 390; i++) {
            t[389 - i] = T0 + i * STEP;
            reversed[389 - i] = x[i];
        }

        AnomalyFinding descending = detector.detect(new Series(Map.of(), t, reversed), latency);

        assertThat(descending.anomalous()).as(descending.note()).isTrue();
        assertThat(descending.onset()).isEqualTo(ascending.onset());
        assertThat(descending.score()).isEqualTo(ascending.score());
    }

    @Test
    void aSeriesThatStoppedReportingBeforeTheWindow_isInsufficientData_andSaysSinceWhen() {
        double[] x = noise(390, 100, 2, 15);
        for (int i = 340; i < 390; i++) {
            x[i] = Double.NaN;
        }

        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.INSUFFICIENT_DATA);
        assertThat(f.note()).isEqualTo("the 30m window up to 2025-03-10T06:29:00Z holds no finite point: the series' last value is at"
                + " 2025-03-10T05:39:00Z, 50m earlier; it stopped reporting (or reports only gaps) since");
    }

    @Test
    void toJson_carriesTheVerdictAndEvidenceWithWireNames() {
        double[] x = noise(390, 100, 2, 14);
        for (int i = 370; i < 390; i++) {
            x[i] += 30;
        }
        JsonObject json = detector.detect(new Series(Map.of("pod", "api-1"), times(390, STEP), x), latency).toJson();
        assertThat(json.getString("status")).isEqualTo("anomalous");
        assertThat(json.getBoolean("anomalous")).isTrue();
        assertThat(json.getString("direction")).isEqualTo("up");
        assertThat(json.getString("kind")).isEqualTo("step");
        assertThat(json.getString("onset")).isEqualTo(Instant.ofEpochMilli(T0 + 370 * STEP).toString());
        assertThat(json.getJsonObject("labels").getString("pod")).isEqualTo("api-1");
        assertThat(json.getJsonObject("evidence").keySet()).contains("baselineMedian", "baselineMad", "windowMedian", "scale");
    }

    @Test
    void sensitivity_parsesWireNamesAndRefusesOthersWithTheAllowedValues() {
        assertThat(Sensitivity.parse(" High ")).isEqualTo(Sensitivity.HIGH);
        assertThatThrownBy(() -> Sensitivity.parse("extreme")).hasMessageContaining("low, medium, high");
        assertThatThrownBy(() -> Sensitivity.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void settings_refuseNonPositiveWindowsAndNegativeMinimumChange() {
        assertThatThrownBy(() -> latency.withWindow(Duration.ZERO)).hasMessageContaining("window must be positive");
        assertThatThrownBy(() -> latency.withSeason(Duration.ofSeconds(-1))).hasMessageContaining("season period");
        assertThatThrownBy(() -> latency.withMinimumChange(-1)).hasMessageContaining("minimum change");
        assertThatThrownBy(() -> latency.withMinimumChange(Double.NaN)).hasMessageContaining("minimum change");
        assertThatThrownBy(() -> latency.withMinimumRelativeChange(-0.1)).hasMessageContaining("minimum relative change");
        assertThatThrownBy(() -> latency.withMinimumRelativeChange(Double.POSITIVE_INFINITY))
                .hasMessageContaining("minimum relative change");
        assertThat(latency.withMinimumRelativeChange(0.2).withWindow(Duration.ofHours(1)).withSensitivity(Sensitivity.HIGH)
                .minimumRelativeChange()).as("kept by every wither").isEqualTo(0.2);
    }

    @Test
    void metricKind_mapsTheCuratedNames() {
        assertThat(MetricKind.forMetric("latency_p99")).isEqualTo(MetricKind.LATENCY);
        assertThat(MetricKind.forMetric("http_request_duration_seconds")).isEqualTo(MetricKind.LATENCY);
        assertThat(MetricKind.forMetric("error_rate")).isEqualTo(MetricKind.ERRORS);
        assertThat(MetricKind.forMetric("cpu")).isEqualTo(MetricKind.SATURATION);
        assertThat(MetricKind.forMetric("memory")).isEqualTo(MetricKind.SATURATION);
        assertThat(MetricKind.forMetric("request_rate")).isEqualTo(MetricKind.THROUGHPUT);
        assertThat(MetricKind.forMetric("queue_messages")).isEqualTo(MetricKind.OTHER);
        assertThat(MetricKind.THROUGHPUT.sidedness()).isEqualTo(Sidedness.BOTH);
        assertThat(MetricKind.LATENCY.sidedness()).isEqualTo(Sidedness.INCREASE);
    }

    @Test
    void robustStatistics_basics() {
        assertThat(RobustStatistics.median(new double[] {5, 1, 3})).isEqualTo(3);
        assertThat(RobustStatistics.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(RobustStatistics.median(new double[0])).isNaN();
        assertThat(RobustStatistics.mad(new double[] {1, 2, 3, 4, 100}, 5, 3)).isEqualTo(1);
        assertThat(RobustStatistics.theilSenSlope(new double[] {0, 1, 2, 3, 4}, new double[] {0, 2, 4, 6, 100}, 5)).isEqualTo(2);
        assertThat(RobustStatistics.mannKendallZ(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 10)).isGreaterThan(3);
        assertThat(RobustStatistics.mannKendallZ(new double[] {2, 2, 2, 2}, 4)).isZero();
    }

    @Test
    void detection_ofADaySeriesAtFifteenSecondSteps_isFast() {
        int n = 5760;
        double[] x = noise(n, 100, 2, 15);
        Series s = series(x, 15_000);
        DetectionSettings settings = latency.withWindow(Duration.ofHours(1));
        for (int i = 0; i < 20; i++) {
            detector.detect(s, settings); // warm-up
        }
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 30; i++) {
            long start = System.nanoTime();
            detector.detect(s, settings);
            best = Math.min(best, System.nanoTime() - start);
        }
        // best of 30, generous for a shared 2-core machine; typical is a few ms
        assertThat(best / 1e6).isLessThan(50);
    }

    private static double[] noise(int n, double level, double sigma, long seed) {
        Random rnd = new Random(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = level + rnd.nextGaussian() * sigma;
        }
        return x;
    }

    private static long[] times(int n, long step) {
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = T0 + i * step;
        }
        return t;
    }

    @Test
    void valuesNearTheLimitOfADouble_giveAFiniteScoreAndTheirOwnLevel_notInfinity() {
        // 1e300 against exact zeros (scale: the 1e-9 floor) overflowed to an infinite score: no JSON number, and
        // detect_anomalies failed whole when it ranked the service; the level read 0 from a ramp fitted to infinities
        double[] x = new double[75];
        for (int i = 65; i < 75; i++) {
            x[i] = 1e300;
        }
        AnomalyFinding f = detector.detect(series(x), DetectionSettings.forMetric("error_rate").withWindow(Duration.ofMinutes(15)));
        assertThat(f.anomalous()).isTrue();
        // measured off the zeros (1 % of the level it moved to), no longer against the 1e-9 floor, whose score was MAX_Z
        assertThat(f.score()).isFinite().isBetween(99.99, 100.01);
        assertThat(f.kind()).contains(AnomalyKind.STEP);
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isEqualTo(1e300);
        assertThat(f.toJson().getJsonNumber("score").doubleValue()).isBetween(99.99, 100.01);
        // the bound still holds where nothing else does: one point of 1e300 beside a steady 1e-300 off zeros
        assertThat(AnomalyDetector.bounded(1e300 / 1e-9)).isEqualTo(AnomalyDetector.MAX_Z);
        assertThat(f.note()).doesNotContain("Infinity");
    }

    @Test
    void aRawMetricNearTheLargestDouble_isJudgedInItsOwnUnit_notAsAboveAHistogramBucket() {
        // the median of an even count took the mean of its middle two as (a + b) / 2, which overflows for two
        // values beyond half the largest double: a raw gauge stepping to 1.7e308 read "above the largest
        // histogram bucket", came first in detect_anomalies as a latency that left its histogram, and lost its level
        double[] x = noise(75, 1e307, 1e305, 61);
        for (int i = 65; i < 75; i++) {
            x[i] = 1.7e308;
        }
        AnomalyFinding f = detector.detect(series(x), DetectionSettings.forMetric("app_queue_depth"));

        assertThat(f.anomalous()).as(f.note()).isTrue();
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.anomalyLevel()).isEqualTo(1.7e308);
        assertThat(e.currentLevel()).isEqualTo(1.7e308);
        assertThat(e.windowMedian()).isFinite();
        assertThat(f.note()).doesNotContain("histogram").contains("1.700e+308");
        assertThat(f.toJson().getJsonObject("evidence").containsKey("anomalyLevelAboveLargestBucket")).isFalse();
        assertThat(RobustStatistics.median(new double[] {Double.MAX_VALUE, Double.MAX_VALUE})).isEqualTo(Double.MAX_VALUE);
        assertThat(RobustStatistics.median(new double[] {-Double.MAX_VALUE, -Double.MAX_VALUE})).isEqualTo(-Double.MAX_VALUE);
    }

    @Test
    void aBaselineSplitBetweenPlusAndMinusNearTheLargestDouble_hasAFiniteScale_andADropToItsLowerLevelIsNoAnomaly() {
        // two thirds at +1.5e308, a third at -1.5e308: MAD 0, so the scale is the mean absolute deviation, 1e308, whose
        // sum (20 deviations of 3e308) overflowed: an infinite scale made every z NaN, read as 0, and wrote no JSON number
        double[] x = new double[75];
        for (int i = 0; i < 75; i++) {
            x[i] = i >= 60 || i % 3 == 0 ? -1.5e308 : 1.5e308;
        }
        AnomalyFinding f = detector.detect(series(x), requests.withWindow(Duration.ofMinutes(15)));

        Evidence e = f.evidence().orElseThrow();
        assertThat(e.scale()).as(f.note())
                .isCloseTo(RobustStatistics.MEAN_ABS_DEV_TO_SIGMA * 1e308, org.assertj.core.data.Offset.offset(1e300));
        // -3e308 off in units of 1.2533e308: about 2.4 sigma, a level the baseline held a third of the time
        assertThat(f.status()).as(f.note()).isEqualTo(AnomalyFinding.Status.NORMAL);
        assertThat(f.score()).isCloseTo(2.39, org.assertj.core.data.Offset.offset(0.01));
        assertThat(f.toJson().toString()).doesNotContain("Infinity", "NaN");
    }

    @Test
    void aLatencyAboveTheLargestBucket_isAStepUp_whoseLevelIsSaidInWordsNotInvented() {
        // a p99 of 50 ms that histogram_quantile places above the largest finite bucket for the last 20 minutes (+Inf)
        double[] x = noise(390, 0.050, 0.002, 51);
        for (int i = 370; i < 390; i++) {
            x[i] = Double.POSITIVE_INFINITY;
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.direction()).isEqualTo(Direction.UP);
        assertThat(f.kind()).contains(AnomalyKind.STEP);
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 370 * STEP));
        // how far above is unknown: the score is the lower bound, not the 1e15 bound nor an infinity
        assertThat(f.score()).isEqualTo(AnomalyDetector.CENSORED_Z);
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.anomalyLevel()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(e.currentLevel()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(e.expectedLevel()).isCloseTo(0.050, org.assertj.core.data.Offset.offset(0.001));
        assertThat(e.windowPoints()).isEqualTo(30);
        assertThat(e.windowPointsAboveLargestBucket()).isEqualTo(20);
        assertThat(f.note()).contains("step up: 20.0 sigma above the flat baseline (0.05", "-> above the largest histogram bucket)",
                "20 of 30 window points were above the largest histogram bucket (+Inf)").doesNotContain("Infinity");
        JsonObject json = f.toJson();
        JsonObject evidence = json.getJsonObject("evidence");
        assertThat(evidence.keySet()).doesNotContain("anomalyLevel", "currentLevel")
                .contains("anomalyLevelAboveLargestBucket", "currentLevelAboveLargestBucket");
        assertThat(evidence.getBoolean("anomalyLevelAboveLargestBucket")).isTrue();
        assertThat(evidence.getInt("windowPointsAboveLargestBucket")).isEqualTo(20);
        assertThat(json.getJsonNumber("score").doubleValue()).isEqualTo(AnomalyDetector.CENSORED_Z);
        assertThat(json.toString()).doesNotContain("Infinity", "NaN");
        assertThat(AnomalyFinding.evidenceSchema().getJsonObject("properties").keySet()).containsAll(evidence.keySet());
    }

    @Test
    void aLatencyThatClimbedFarBeforeLeavingTheHistogram_scoresAtLeastWhereItsLastMeasurableValueWas() {
        // 50 ms, then 1 s for 10 minutes, then above the largest bucket: above 1 s, so at least 1 s's z
        double[] x = noise(390, 0.050, 0.002, 52);
        for (int i = 370; i < 390; i++) {
            x[i] = i < 380 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        AnomalyFinding f = detector.detect(series(x), latency);

        Evidence e = f.evidence().orElseThrow();
        double lastMeasurable = (1.0 - e.baselineMedian()) / e.scale();
        assertThat(f.anomalous()).isTrue();
        assertThat(f.score()).isGreaterThanOrEqualTo(lastMeasurable * 0.99).isGreaterThan(AnomalyDetector.CENSORED_Z).isFinite();
        assertThat(f.onset()).contains(Instant.ofEpochMilli(T0 + 370 * STEP));
        assertThat(e.currentLevel()).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void infinityInTheBaseline_isLeftOutOfItsMedianAndMad_andALoneOneInTheWindowIsNoAnomaly() {
        double[] x = noise(390, 0.050, 0.002, 53);
        double[] clean = x.clone();
        // a third of the baseline above the largest bucket: read as values, the MAD would widen; as a level, the median climb
        for (int i = 0; i < 360; i += 3) {
            x[i] = Double.POSITIVE_INFINITY;
        }
        x[380] = Double.POSITIVE_INFINITY;
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.status()).as(f.note()).isEqualTo(AnomalyFinding.Status.NORMAL);
        Evidence e = f.evidence().orElseThrow();
        Evidence without = detector.detect(series(clean), latency).evidence().orElseThrow();
        assertThat(e.baselineMedian()).isCloseTo(without.baselineMedian(), org.assertj.core.data.Offset.offset(0.0005));
        assertThat(e.baselineMad()).isCloseTo(without.baselineMad(), org.assertj.core.data.Offset.offset(0.0005));
        assertThat(e.baselinePoints()).isEqualTo(240);
        assertThat(e.baselinePointsAboveLargestBucket()).isEqualTo(120);
        assertThat(e.windowPointsAboveLargestBucket()).isEqualTo(1);
        assertThat(f.note()).contains("120 baseline points above the largest histogram bucket (+Inf) were left out of the baseline",
                "1 of 30 window points were above the largest histogram bucket");
        assertThat(f.toJson().toString()).doesNotContain("Infinity", "NaN");
    }

    @Test
    void infinity_isStillAGapForAKindThatIsNoLatency_andWhenCensoringIsOff() {
        double[] x = noise(390, 100, 2, 54);
        for (int i = 370; i < 390; i++) {
            x[i] = Double.POSITIVE_INFINITY;
        }
        x[371] = Double.NEGATIVE_INFINITY;
        for (DetectionSettings gaps : new DetectionSettings[] {requests, latency.withCensoredAtInfinity(false)}) {
            AnomalyFinding f = detector.detect(series(x), gaps);
            assertThat(f.status()).as(f.note()).isEqualTo(AnomalyFinding.Status.NORMAL);
            assertThat(f.evidence().orElseThrow().windowPoints()).isEqualTo(10);
            assertThat(f.evidence().orElseThrow().windowPointsAboveLargestBucket()).isZero();
        }
        assertThat(MetricKind.LATENCY.censoredAtInfinity()).isTrue();
        assertThat(MetricKind.ERRORS.censoredAtInfinity()).isFalse();
        // -Inf is never a latency: a gap even when +Inf counts
        assertThat(detector.detect(series(x), latency).evidence().orElseThrow().windowPoints()).isEqualTo(29);
    }

    @Test
    void aSeriesAboveTheLargestBucketThroughout_hasNoBaseline_andSaysWhy() {
        double[] x = new double[390];
        java.util.Arrays.fill(x, Double.POSITIVE_INFINITY);
        AnomalyFinding f = detector.detect(series(x), latency);

        assertThat(f.status()).isEqualTo(AnomalyFinding.Status.INSUFFICIENT_DATA);
        assertThat(f.note()).contains("holds 0 finite points (360 more were above the largest histogram bucket, +Inf");
    }

    /**
     * A flat-zero error rate that moves a little against a noisy latency that moves a lot: measured
     * against the noise of exact zeros alone (the 1e-9 floor) the first scored millions of sigmas and
     * came first in detect_anomalies and in a post-mortem's signals. The tools' minimum change floors
     * the scale (0.5 % / 3.5), so the error rate scores by its size.
     */
    @Test
    void aSmallMoveOffAFlatZeroBaseline_ranksBelowALargeMoveOnANoisyOne_andScoresByItsSize() {
        DetectionSettings errors = dev.omcp.core.tools.observability.CuratedMetricNames.detectionSettings("error_rate")
                .withWindow(Duration.ofMinutes(30));
        DetectionSettings p99 = dev.omcp.core.tools.observability.CuratedMetricNames.detectionSettings("latency_p99")
                .withWindow(Duration.ofMinutes(30));
        AnomalyFinding slightErrors = detector.detect(series(zerosThen(0.006)), errors);
        double[] slow = noise(390, 0.200, 0.010, 55);
        for (int i = 370; i < 390; i++) {
            slow[i] += 0.200;
        }
        AnomalyFinding slower = detector.detect(series(slow), p99);

        assertThat(slightErrors.anomalous()).as(slightErrors.note()).isTrue();
        assertThat(slower.anomalous()).as(slower.note()).isTrue();
        assertThat(slightErrors.score()).isCloseTo(0.006 / (0.005 / 3.5), org.assertj.core.data.Offset.offset(0.1));
        assertThat(slightErrors.evidence().orElseThrow().scaleSource()).isEqualTo("minimum-change");
        assertThat(slower.score()).isGreaterThan(15).isGreaterThan(slightErrors.score());

        // 0 -> 5 % is still found, and ranks by its size: above the slight move and the noisy latency
        AnomalyFinding outage = detector.detect(series(zerosThen(0.05)), errors);
        assertThat(outage.anomalous()).isTrue();
        assertThat(outage.score()).isCloseTo(35, org.assertj.core.data.Offset.offset(0.5)).isGreaterThan(slower.score());
        // and a stray 0.1 % is a near miss of 0.7 sigma, not a normal verdict of a million (the history records it)
        AnomalyFinding stray = detector.detect(series(zerosThen(0.001)), errors);
        assertThat(stray.anomalous()).isFalse();
        assertThat(stray.score()).isCloseTo(0.7, org.assertj.core.data.Offset.offset(0.05));
    }

    /** 390 minutes of an error rate of exactly 0, the last 20 at {@code level}. */
    /**
     * A raw metric (no unit, so no minimum change) that sits at exactly 0 over its baseline: the
     * scale floor was 1e-9, so an error counter going from 0 to 5/s scored 5e9 and a jitter of
     * 1e-6 scored hundreds of sigmas, an anomaly. Now a move off the zeros is measured by how far it
     * moved and how much it scatters there.
     */
    @Test
    void aRawErrorCounterGoingFromExactZeroTo5PerSecond_isFound_withAFiniteScoreInUnitsOfItsOwnNoise() {
        Random rnd = new Random(7);
        double[] noisy = new double[390];
        double[] steady = new double[390];
        for (int i = 370; i < 390; i++) {
            noisy[i] = 5 * (1 + 0.1 * rnd.nextGaussian());
            steady[i] = 5;
        }
        DetectionSettings errors = DetectionSettings.forMetric("payment_failures_per_second");
        AnomalyFinding f = detector.detect(series(noisy), errors);
        assertThat(f.anomalous()).as(f.note()).isTrue();
        assertThat(f.direction()).isEqualTo(Direction.UP);
        // about 5 over its 10 % noise (0.5): a score beside the incidents measured in noise, not 5e9
        assertThat(f.score()).isBetween(5.0, 20.0);
        assertThat(f.evidence().orElseThrow().scaleSource()).isEqualTo("off-zero");
        assertThat(f.evidence().orElseThrow().anomalyLevel()).isBetween(4.5, 5.5);

        AnomalyFinding exact = detector.detect(series(steady), errors);
        assertThat(exact.anomalous()).isTrue();
        // no noise at all: measured in at least 1 % of the level it moved to (score 100 at most), here in the mean
        // absolute deviation its five points before the window give the baseline (about 60), which is wider
        assertThat(exact.score()).isBetween(50.0, 100.01);
        assertThat(exact.onset()).contains(Instant.ofEpochMilli(T0 + 370 * STEP));
    }

    @Test
    void aJitterOf1eMinus6OffExactZeros_isNoAnomaly_ofAnyRawKind() {
        Random rnd = new Random(11);
        double[] positive = new double[390];
        double[] signed = new double[390];
        for (int i = 360; i < 390; i++) {
            positive[i] = Math.abs(rnd.nextGaussian()) * 1e-6;
            signed[i] = rnd.nextGaussian() * 1e-6;
        }
        for (String metric : new String[] {"payment_failures_per_second", "app_queue_depth"}) {
            DetectionSettings settings = DetectionSettings.forMetric(metric);
            for (double[] x : new double[][] {positive, signed}) {
                AnomalyFinding f = detector.detect(series(x), settings);
                assertThat(f.anomalous()).as(metric + ": " + f.note()).isFalse();
                assertThat(f.score()).as(metric).isLessThan(3.5);
                assertThat(f.evidence().orElseThrow().scaleSource()).isEqualTo("off-zero");
            }
        }
    }

    /**
     * A queue that sits at exactly 0 and rose to about 100 five minutes before a 30-minute window,
     * judged against a 2-hour season: the window's move off the zeros sets the scale (off-zero,
     * about 10), and the baseline's last five minutes sit at the same level. Their z scores were
     * still divided by their time of day's scale (widened by the rise itself, about 150) and then
     * rescaled as if by the day-wide one, so they read 0.35 sigma where the window read 10, and
     * the onset stopped at the window's edge.
     */
    @Test
    void aRiseOffZerosJustBeforeTheWindow_withASeason_isDatedWhereItBegan_measuredInTheSameScaleAsTheWindow() {
        long step = 30_000;
        Random rnd = new Random(41);
        double[] x = new double[560];
        for (int i = 490; i < x.length; i++) {
            x[i] = 100 + 10 * rnd.nextGaussian();
        }
        AnomalyFinding f = detector.detect(series(x, step), latency.withSeason(Duration.ofHours(2)));

        assertThat(f.anomalous()).as(f.note()).isTrue();
        Evidence e = f.evidence().orElseThrow();
        assertThat(e.method()).isEqualTo("seasonal");
        assertThat(e.scaleSource()).isEqualTo("off-zero");
        assertThat(f.onset()).as(f.note()).contains(Instant.ofEpochMilli(T0 + 490 * step));
    }

    private static double[] zerosThen(double level) {
        double[] x = new double[390];
        for (int i = 370; i < 390; i++) {
            x[i] = level;
        }
        return x;
    }

    private static Series series(double[] x) {
        return series(x, STEP);
    }

    private static Series series(double[] x, long step) {
        return new Series(Map.of(), times(x.length, step), x);
    }
}
