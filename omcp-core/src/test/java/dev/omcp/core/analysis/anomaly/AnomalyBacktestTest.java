package dev.omcp.core.analysis.anomaly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.anomaly.SyntheticCases.Case;
import dev.omcp.core.analysis.anomaly.SyntheticCases.Category;
import dev.omcp.core.tools.observability.CuratedMetricNames;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The anomaly backtest (issue 4): seeded synthetic cases of every shape, scored at every
 * sensitivity. It gates precision >= 0.95 and recall >= 0.90 at the shipped default sensitivity and
 * prints the table that docs/analysis.md quotes. Rerun with
 * {@code mvn -B -o test -pl omcp-core -am -Dtest=AnomalyBacktestTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class AnomalyBacktestTest {
    private static final double PRECISION_GATE = 0.95;
    private static final double RECALL_GATE = 0.90;

    private final AnomalyDetector detector = new AnomalyDetector();

    record Tally(int cases, int fired, int kindRight, int onsetRight, List<String> wrong) {}

    record Score(Map<Category, Tally> byCategory, int tp, int fp, int fn, int tn) {
        double precision() {
            return tp + fp == 0 ? 1.0 : (double) tp / (tp + fp);
        }

        double recall() {
            return tp + fn == 0 ? 1.0 : (double) tp / (tp + fn);
        }
    }

    @Test
    void backtest_atTheShippedDefaultSensitivity_meetsThePrecisionAndRecallGates() {
        List<Case> cases = SyntheticCases.all();
        assertThat(cases).hasSizeGreaterThanOrEqualTo(60);
        StringBuilder table = new StringBuilder();
        Score atDefault = null;
        for (Sensitivity s : Sensitivity.values()) {
            Score score = run(cases, s);
            table.append(render(s, score));
            if (s == AnomalyDetector.DEFAULT_SENSITIVITY) {
                atDefault = score;
            }
        }
        System.out.println(table);
        assertThat(atDefault).isNotNull();
        List<String> misses = new ArrayList<>();
        atDefault.byCategory().values().forEach(t -> misses.addAll(t.wrong()));
        assertThat(atDefault.precision())
                .as("precision at %s (wrong verdicts: %s)", AnomalyDetector.DEFAULT_SENSITIVITY, misses)
                .isGreaterThanOrEqualTo(PRECISION_GATE);
        assertThat(atDefault.recall())
                .as("recall at %s (wrong verdicts: %s)", AnomalyDetector.DEFAULT_SENSITIVITY, misses)
                .isGreaterThanOrEqualTo(RECALL_GATE);
    }

    @Test
    void backtest_transientSinglePointSpikes_neverFireAtAnySensitivity() {
        for (Sensitivity s : Sensitivity.values()) {
            Score score = run(SyntheticCases.all(), s);
            assertThat(score.byCategory().get(Category.TRANSIENT).fired()).as("transient spikes firing at %s", s).isZero();
        }
    }

    @Test
    void backtest_atTheDefault_detectedAnomaliesCarryTheRightOnsetForMostCases() {
        Score score = run(SyntheticCases.all(), AnomalyDetector.DEFAULT_SENSITIVITY);
        int fired = 0;
        int onsetRight = 0;
        for (Category c : Category.values()) {
            if (c.anomalous) {
                fired += score.byCategory().get(c).fired();
                onsetRight += score.byCategory().get(c).onsetRight();
            }
        }
        assertThat((double) onsetRight / fired).as("share of detections with onset within tolerance").isGreaterThanOrEqualTo(0.9);
    }

    /**
     * A step of 20-50 % on top of a slow drift that has been rising towards it (the demo's memory
     * with {@code window: 1h}): the onset must be the step's, within the usual 3 steps, for nearly
     * every case, found and dated. Walking back over every point half the threshold off dated a
     * sixth of them early, by up to 47 minutes, and with the step measured over the lead-in as well
     * a few of them were too small to report (docs/analysis.md, Backtest).
     */
    @Test
    void backtest_aStepOnASlowDrift_isFoundAndDatedAtTheStep() {
        Tally drift = run(SyntheticCases.all(), AnomalyDetector.DEFAULT_SENSITIVITY).byCategory().get(Category.STEP_ON_DRIFT);
        assertThat((double) drift.onsetRight() / drift.cases()).as("steps on a drift found and dated at the step: %s", drift)
                .isGreaterThanOrEqualTo(0.9);
    }

    /**
     * A level shift inside the baseline that the window continues (a deploy an hour ago): the
     * detector may stay quiet or report the level as still deviating (a step, in the shift's
     * direction, since the shift, within 3 steps). Anything else is a wrong report, as a false alarm
     * on a clean series is; at the default sensitivity at most 5 % of the cases may get one, the
     * share the precision gate allows. The trend baseline's line is tilted by such a jump, which
     * could make a window at the new level look like a deviation the other way; the tilt also
     * widens the noise measured around the line, and this measures which one wins
     * (docs/analysis.md, "Limits of the backtest").
     */
    @Test
    void backtest_aLevelShiftInsideTheBaseline_isQuietOrReportedAsAStepSinceTheShift() {
        List<Case> cases = SyntheticCases.baselineShifts();
        for (Sensitivity s : Sensitivity.values()) {
            int sinceShift = 0;
            List<String> wrong = new ArrayList<>();
            for (Case c : cases) {
                AnomalyFinding f = detector.detect(c.series(), c.settings().withSensitivity(s));
                assertThat(f.status()).as(c.name()).isNotEqualTo(AnomalyFinding.Status.INSUFFICIENT_DATA);
                if (!f.anomalous()) {
                    continue;
                }
                boolean asTheShift = f.kind().equals(c.expectedKind())
                        && f.direction() == (c.name().contains("-up") ? Direction.UP : Direction.DOWN)
                        && Math.abs(f.onset().orElseThrow().toEpochMilli() - c.expectedOnset().orElseThrow()) <= 3 * c.stepMillis();
                if (asTheShift) {
                    sinceShift++;
                } else {
                    wrong.add(c.name() + ": " + f.note());
                }
            }
            System.out.printf(Locale.ROOT, "Level shift inside the baseline, %s: %d of %d quiet, %d reported as a step since the shift,"
                    + " %d reported otherwise %s%n", s.wireName(), cases.size() - sinceShift - wrong.size(), cases.size(), sinceShift,
                    wrong.size(), wrong);
            if (s == AnomalyDetector.DEFAULT_SENSITIVITY) {
                assertThat(wrong.size()).as("wrong reports at %s: %s", s, wrong).isLessThanOrEqualTo(cases.size() / 20);
            }
        }
    }

    /**
     * The tools' relative minimum for request rate is what keeps the wobbles quiet: without it, a
     * good share of them fire (the noise is small, so a few per cent are several sigmas). Also
     * prints what the minimum costs on the 75-minute traffic shifts, which are sized in sigmas
     * (5…10 of 1…4 % noise, so 5…40 %) and scored without it.
     */
    @Test
    void backtest_theToolsRelativeMinimum_isWhatKeepsTrafficWobblesQuiet() {
        List<Case> cases = SyntheticCases.all();
        int wobbles = 0;
        int firedWithout = 0;
        int firedWith = 0;
        int shifts = 0;
        int shiftsKept = 0;
        double minimum = CuratedMetricNames.minimumRelativeChange(CuratedMetricNames.REQUEST_RATE);
        for (Case c : cases) {
            if (c.category() == Category.TRAFFIC_WOBBLE) {
                wobbles++;
                firedWith += detector.detect(c.series(), c.settings()).anomalous() ? 1 : 0;
                firedWithout += detector.detect(c.series(), c.settings().withMinimumRelativeChange(0)).anomalous() ? 1 : 0;
            } else if (c.category() == Category.TRAFFIC_SHIFT) {
                shifts++;
                shiftsKept += detector.detect(c.series(), c.settings().withMinimumRelativeChange(minimum)).anomalous() ? 1 : 0;
            }
        }
        System.out.printf(Locale.ROOT, "Traffic wobbles (3-10 %%, 1 h window): %d of %d fire without the relative minimum, %d with %.0f %%."
                + " Traffic shifts (5-10 sigma, 15 min window): %d of %d still reported with it.%n", firedWithout, wobbles, firedWith,
                minimum * 100, shiftsKept, shifts);
        assertThat(firedWithout).as("wobbles firing without the minimum: the cases exercise it").isGreaterThanOrEqualTo(wobbles / 4);
        assertThat(firedWith).isLessThan(firedWithout);
    }

    /**
     * The p99s that go above the largest histogram bucket are found because {@code +Inf} counts as
     * above every finite value. Read as gaps, as before, one that went there at once left a window of
     * only the points before it, and none of those was found; one that climbed first, or hovers at the
     * bucket's bound, could still be found from its finite points.
     */
    @Test
    void backtest_latenciesAboveTheLargestBucket_areFoundBecauseInfinityCountsAsAboveIt() {
        int cases = 0;
        int atOnce = 0;
        int foundAsGaps = 0;
        int atOnceFoundAsGaps = 0;
        for (Case c : SyntheticCases.all()) {
            if (c.category() != Category.LATENCY_ABOVE_BUCKET) {
                continue;
            }
            cases++;
            AnomalyFinding censored = detector.detect(c.series(), c.settings());
            assertThat(censored.anomalous()).as(c.name() + ": " + censored.note()).isTrue();
            assertThat(censored.score()).as(c.name()).isGreaterThanOrEqualTo(AnomalyDetector.CENSORED_Z);
            assertThat(censored.note()).as(c.name()).contains("above the largest histogram bucket").doesNotContain("Infinity");
            boolean asGaps = detector.detect(c.series(), c.settings().withCensoredAtInfinity(false)).anomalous();
            foundAsGaps += asGaps ? 1 : 0;
            if (c.name().contains("-at-once")) {
                atOnce++;
                atOnceFoundAsGaps += asGaps ? 1 : 0;
            }
        }
        System.out.printf(Locale.ROOT, "Latencies above the largest bucket, with +Inf read as a gap: %d of %d found, %d of the %d that went "
                + "there at once.%n", foundAsGaps, cases, atOnceFoundAsGaps, atOnce);
        assertThat(atOnce).isPositive();
        assertThat(atOnceFoundAsGaps).as("cases that went above the bucket at once, found with +Inf read as a gap").isZero();
    }

    /**
     * A raw metric (unit unknown, so no minimum change) that barely moves is judged in units of the
     * scale floor, not of its own tiny noise: 1 % of its level ({@link AnomalyDetector#RELATIVE_SCALE_FLOOR}),
     * or 1e-9 at exactly 0. Measured against the noise alone, its wiggles of a fraction of a per cent
     * scored tens to tens of thousands of sigmas (all 100 of the sweep's steady cases fired without
     * the relative floor), and a real step was dated early, at a wiggle before it (59 of 100 right).
     * With the floors, every steady case is quiet and every real step found, at every sensitivity.
     */
    @Test
    void backtest_nearConstantRawMetrics_areJudgedInUnitsOfTheScaleFloor_soOnlyARealStepFires() {
        int steady = 0;
        int steps = 0;
        for (Case c : SyntheticCases.all()) {
            if (c.category() != Category.RAW_STEADY && c.category() != Category.RAW_STEP) {
                continue;
            }
            for (Sensitivity s : Sensitivity.values()) {
                AnomalyFinding f = detector.detect(c.series(), c.settings().withSensitivity(s));
                assertThat(f.anomalous()).as("%s at %s: %s", c.name(), s, f.note()).isEqualTo(c.category() == Category.RAW_STEP);
            }
            if (c.category() == Category.RAW_STEADY) {
                steady++;
                Evidence e = detector.detect(c.series(), c.settings()).evidence().orElseThrow();
                // the floor set the scale, and the noise alone would have given one at least ten times finer: the case exercises it
                assertThat(e.scaleSource()).as(c.name()).isEqualTo("floor");
                assertThat(RobustStatistics.MAD_TO_SIGMA * e.baselineMad()).as(c.name()).isLessThan(e.scale() / 10);
            } else {
                steps++;
            }
        }
        assertThat(steady).isPositive();
        assertThat(steps).isPositive();
    }

    /**
     * An error rate that was exactly 0 scores by the size of its step, in units of the tools' minimum
     * change over the default threshold (0.5 % / 3.5): 1 % is 7 sigma, 10 % is 70. Against the noise
     * of exact zeros alone (the 1e-9 floor) each scored 1e7 and more, and outranked every incident on
     * a noisy baseline.
     */
    @Test
    void backtest_anErrorRateFromZero_scoresByTheSizeOfItsStep() {
        double unit = CuratedMetricNames.minimumChange(CuratedMetricNames.ERROR_RATE) / AnomalyDetector.DEFAULT_SENSITIVITY.levelThreshold();
        for (Case c : SyntheticCases.all()) {
            if (c.category() != Category.ERRORS_FROM_ZERO) {
                continue;
            }
            AnomalyFinding f = detector.detect(c.series(), c.settings());
            Evidence e = f.evidence().orElseThrow();
            assertThat(e.scaleSource()).as(c.name()).isEqualTo("minimum-change");
            assertThat(f.score()).as(c.name() + ": " + f.note()).isBetween(0.7 * e.anomalyLevel() / unit, 1.3 * e.anomalyLevel() / unit);
        }
    }

    private Score run(List<Case> cases, Sensitivity sensitivity) {
        Map<Category, int[]> counts = new EnumMap<>(Category.class);
        Map<Category, List<String>> wrong = new EnumMap<>(Category.class);
        int tp = 0;
        int fp = 0;
        int fn = 0;
        int tn = 0;
        for (Case c : cases) {
            AnomalyFinding f = detector.detect(c.series(), c.settings().withSensitivity(sensitivity));
            assertThat(f.status()).as(c.name()).isNotEqualTo(AnomalyFinding.Status.INSUFFICIENT_DATA);
            int[] k = counts.computeIfAbsent(c.category(), x -> new int[4]);
            List<String> w = wrong.computeIfAbsent(c.category(), x -> new ArrayList<>());
            k[0]++;
            if (f.anomalous()) {
                k[1]++;
                if (c.expectedKind().isPresent() && f.kind().equals(c.expectedKind())) {
                    k[2]++;
                }
                // onset within a tolerance of 3 steps, or for ramps a quarter of the window (a ramp's start is blurred by noise)
                long tolerance = c.category() == Category.RAMP ? 8 * c.stepMillis() : 3 * c.stepMillis();
                if (c.expectedOnset().isPresent()
                        && Math.abs(f.onset().orElseThrow().toEpochMilli() - c.expectedOnset().get()) <= tolerance) {
                    k[3]++;
                }
            }
            boolean expected = c.category().anomalous;
            if (expected && f.anomalous()) {
                tp++;
            } else if (!expected && f.anomalous()) {
                fp++;
                w.add(c.name() + " fired: " + f.note());
            } else if (expected) {
                fn++;
                w.add(c.name() + " missed: " + f.note());
            } else {
                tn++;
            }
        }
        Map<Category, Tally> byCategory = new EnumMap<>(Category.class);
        counts.forEach((c, k) -> byCategory.put(c, new Tally(k[0], k[1], k[2], k[3], wrong.get(c))));
        return new Score(byCategory, tp, fp, fn, tn);
    }

    private static String render(Sensitivity s, Score score) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%nSensitivity %s%s: precision %.3f, recall %.3f (TP %d, FP %d, FN %d, TN %d)%n",
                s.wireName(), s == AnomalyDetector.DEFAULT_SENSITIVITY ? " (default)" : "", score.precision(), score.recall(),
                score.tp(), score.fp(), score.fn(), score.tn()));
        b.append("| Category | Expected | Cases | Fired | Right verdict | Kind right | Onset right |\n");
        b.append("|---|---|---|---|---|---|---|\n");
        score.byCategory().forEach((c, t) -> {
            int right = c.anomalous ? t.fired() : t.cases() - t.fired();
            b.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d/%d | %s | %s |%n", c.name().toLowerCase(Locale.ROOT),
                    c.anomalous ? "anomaly" : "normal", t.cases(), t.fired(), right, t.cases(),
                    c.anomalous ? t.kindRight() + "/" + t.fired() : "-", c.anomalous ? t.onsetRight() + "/" + t.fired() : "-"));
        });
        score.byCategory().values().forEach(t -> t.wrong().forEach(w -> b.append("- ").append(w).append('\n')));
        return b.toString();
    }
}
