package dev.omcp.core.analysis.anomaly;

import dev.omcp.core.tools.observability.CuratedMetricNames;
import dev.omcp.sdk.query.Series;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Seeded synthetic series for the backtest. Every case is generated from its own seed, so a case
 * can be reproduced alone ({@code SyntheticCases.generate(category, seed)}) and the whole set is
 * identical on every run and machine.
 */
final class SyntheticCases {
    static final long START = Instant.parse("2025-03-10T00:00:00Z").toEpochMilli();
    static final int CASES_PER_CATEGORY = Integer.getInteger("omcp.backtest.perCategory", 12);

    enum Category {
        SPIKE(true), STEP(true), RAMP(true), SEASONAL_DEVIATION(true), TRAFFIC_SHIFT(true),
        SEASONAL_CLEAN(false), NOISY_CLEAN(false), CLEAN(false), TRANSIENT(false), TRAFFIC_CLEAN(false),
        /**
         * A level shift inside the baseline that the window continues: neither clean nor an anomaly
         * of the window, so not scored for precision and recall ({@link #all()} leaves it out); see
         * {@link #baselineShifts()}.
         */
        BASELINE_SHIFT(false),
        /** Request rate on the tools' one-hour layout, judged with the tools' settings: a wobble of a few per cent. */
        TRAFFIC_WOBBLE(false),
        /** The same with a surge or a drop of 35…60 %: an incident whatever the noise. */
        TRAFFIC_SURGE(true),
        /**
         * The demo's memory on the tools' one-hour layout: a step of 20…50 % on top of a slow drift
         * of a few per cent that has been rising towards it for the last half hour or more.
         */
        STEP_ON_DRIFT(true),
        /**
         * A p99 latency on the tools' layout that goes above the largest histogram bucket
         * ({@code histogram_quantile} answers {@code +Inf}) from inside the window.
         */
        LATENCY_ABOVE_BUCKET(true),
        /** The same p99 with isolated {@code +Inf} answers in the baseline and the window: no incident. */
        LATENCY_BUCKET_BLIPS(false),
        /** An error rate that was exactly 0 (but for a stray failed request or two) stepping to 1…10 %. */
        ERRORS_FROM_ZERO(true),
        /** An error rate that is exactly 0 but for stray failed requests, each under the tools' minimum change. */
        ERRORS_STRAY(false),
        /**
         * A raw metric name (unit unknown, so no minimum change) that is nearly constant: jitter of
         * 1e-7…1e-4 of its level, and wiggles of 0.01…0.5 % of it lasting 3…12 points, one of them in
         * the window; a quarter sit at exactly 0 with floating-point noise instead. No incident.
         */
        RAW_STEADY(false),
        /** The same near-constant raw series with a real step from inside the window: 10…100 % of its level, or off exact 0. */
        RAW_STEP(true);

        final boolean anomalous;

        Category(boolean anomalous) {
            this.anomalous = anomalous;
        }
    }

    /**
     * One labelled case.
     *
     * @param expectedOnset where the injected anomaly starts (empty for clean cases)
     * @param stepMillis the sampling step, for onset tolerance
     */
    record Case(String name, Category category, Series series, DetectionSettings settings,
            Optional<AnomalyKind> expectedKind, Optional<Long> expectedOnset, long stepMillis) {}

    private SyntheticCases() {}

    /** Cases with a level shift inside the baseline, at least 40 of them; expected onset: the shift. */
    static List<Case> baselineShifts() {
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < Math.max(40, CASES_PER_CATEGORY); i++) {
            cases.add(generate(Category.BASELINE_SHIFT, 1000L * (Category.BASELINE_SHIFT.ordinal() + 1) + i));
        }
        return cases;
    }

    static List<Case> all() {
        List<Case> cases = new ArrayList<>();
        for (Category c : Category.values()) {
            if (c == Category.BASELINE_SHIFT) {
                continue;
            }
            for (int i = 0; i < CASES_PER_CATEGORY; i++) {
                cases.add(generate(c, 1000L * (c.ordinal() + 1) + i));
            }
        }
        return cases;
    }

    static Case generate(Category category, long seed) {
        Random rnd = new Random(seed);
        return switch (category) {
            case SPIKE -> spike(rnd, seed);
            case STEP -> step(rnd, seed);
            case RAMP -> ramp(rnd, seed);
            case SEASONAL_DEVIATION -> seasonal(rnd, seed, true);
            case SEASONAL_CLEAN -> seasonal(rnd, seed, false);
            case NOISY_CLEAN -> noisyClean(rnd, seed);
            case CLEAN -> clean(rnd, seed);
            case TRANSIENT -> transientSpike(rnd, seed);
            case TRAFFIC_SHIFT -> traffic(rnd, seed, true);
            case TRAFFIC_CLEAN -> traffic(rnd, seed, false);
            case BASELINE_SHIFT -> baselineShift(rnd, seed);
            case TRAFFIC_WOBBLE -> trafficHour(rnd, seed, false);
            case TRAFFIC_SURGE -> trafficHour(rnd, seed, true);
            case STEP_ON_DRIFT -> stepOnDrift(rnd, seed);
            case LATENCY_ABOVE_BUCKET -> latencyAboveBucket(rnd, seed, true);
            case LATENCY_BUCKET_BLIPS -> latencyAboveBucket(rnd, seed, false);
            case ERRORS_FROM_ZERO -> errorsFromZero(rnd, seed, true);
            case ERRORS_STRAY -> errorsFromZero(rnd, seed, false);
            case RAW_STEADY -> nearConstantRaw(rnd, seed, false);
            case RAW_STEP -> nearConstantRaw(rnd, seed, true);
        };
    }

    // flat layout: 6 h of baseline plus a 30 min window at a 1 min step
    private static final long STEP = 60_000;
    private static final int BASELINE = 360;
    private static final int WINDOW = 30;
    private static final Duration WINDOW_LENGTH = Duration.ofMinutes(30);

    private static Case spike(Random rnd, long seed) {
        double level = 100 + rnd.nextDouble() * 200;
        double sigma = level * (0.02 + rnd.nextDouble() * 0.05);
        double[] x = gaussian(rnd, BASELINE + WINDOW, level, sigma);
        int length = 4 + rnd.nextInt(5);
        int start = BASELINE + 2 + rnd.nextInt(WINDOW - length - 8);
        double amp = (5 + rnd.nextDouble() * 7) * sigma;
        for (int i = start; i < start + length; i++) {
            x[i] += amp;
        }
        sprinkleGaps(rnd, x, 0.02);
        return flatCase("spike", Category.SPIKE, seed, x, MetricKind.LATENCY, AnomalyKind.SPIKE, start);
    }

    private static Case step(Random rnd, long seed) {
        boolean drop = rnd.nextBoolean();
        double level = drop ? 500 + rnd.nextDouble() * 1500 : 0.2 + rnd.nextDouble();
        double sigma = level * (0.02 + rnd.nextDouble() * 0.05);
        double[] x = gaussian(rnd, BASELINE + WINDOW, level, sigma);
        boolean constant = seed % 6 == 0;
        if (constant) {
            // a quantised, constant baseline (MAD = 0): the scale falls back to the floor
            java.util.Arrays.fill(x, level);
        }
        int start = BASELINE + rnd.nextInt(WINDOW - 8);
        double amp = (4.5 + rnd.nextDouble() * 5.5) * sigma * (drop ? -1 : 1);
        for (int i = start; i < x.length; i++) {
            x[i] += amp;
        }
        sprinkleGaps(rnd, x, 0.03);
        return flatCase(constant ? "step-constant" : drop ? "step-drop" : "step-up", Category.STEP, seed, x,
                drop ? MetricKind.THROUGHPUT : MetricKind.LATENCY, AnomalyKind.STEP, start);
    }

    private static Case ramp(Random rnd, long seed) {
        double level = 0.5 + rnd.nextDouble() * 2;
        double sigma = level * (0.02 + rnd.nextDouble() * 0.04);
        double[] x = gaussian(rnd, BASELINE + WINDOW, level, sigma);
        int start = BASELINE + rnd.nextInt(8);
        double endRise = (3.5 + rnd.nextDouble() * 4.5) * sigma;
        int len = x.length - start;
        for (int i = start; i < x.length; i++) {
            x[i] += endRise * (i - start + 1) / len;
        }
        sprinkleGaps(rnd, x, 0.02);
        MetricKind kind = rnd.nextBoolean() ? MetricKind.LATENCY : MetricKind.SATURATION;
        return flatCase("ramp", Category.RAMP, seed, x, kind, AnomalyKind.RAMP, start);
    }

    private static Case noisyClean(Random rnd, long seed) {
        double level = 50 + rnd.nextDouble() * 500;
        double sigma = level * (0.05 + rnd.nextDouble() * 0.1);
        int n = BASELINE + WINDOW;
        double[] x = new double[n];
        double ar = 0;
        boolean autocorrelated = seed % 2 == 0;
        for (int i = 0; i < n; i++) {
            double e = studentT(rnd, 3) * sigma;
            // AR(1) with coefficient 0.7, scaled so the marginal deviation stays sigma
            ar = autocorrelated ? 0.7 * ar + e * Math.sqrt(1 - 0.49) : e;
            x[i] = level + ar;
        }
        // a few isolated outliers anywhere, including the window
        for (int k = 0; k < 6; k++) {
            x[rnd.nextInt(n)] += (rnd.nextBoolean() ? 1 : -1) * (4 + rnd.nextDouble() * 6) * sigma;
        }
        sprinkleGaps(rnd, x, 0.05);
        MetricKind kind = MetricKind.values()[rnd.nextInt(MetricKind.values().length)];
        return flatCase("noisy-clean", Category.NOISY_CLEAN, seed, x, kind, null, -1);
    }

    private static Case clean(Random rnd, long seed) {
        double level = 1 + rnd.nextDouble() * 1000;
        double sigma = level * (0.01 + rnd.nextDouble() * 0.05);
        double[] x = gaussian(rnd, BASELINE + WINDOW, level, sigma);
        String name = "clean";
        if (seed % 4 == 0) {
            java.util.Arrays.fill(x, level);
            name = "clean-constant";
        } else if (seed % 4 == 1) {
            java.util.Arrays.fill(x, 0);
            name = "clean-zero";
        }
        sprinkleGaps(rnd, x, 0.1);
        MetricKind kind = MetricKind.values()[rnd.nextInt(MetricKind.values().length)];
        return flatCase(name, Category.CLEAN, seed, x, kind, null, -1);
    }

    private static Case transientSpike(Random rnd, long seed) {
        double level = 100 + rnd.nextDouble() * 200;
        double sigma = level * (0.02 + rnd.nextDouble() * 0.05);
        double[] x = gaussian(rnd, BASELINE + WINDOW, level, sigma);
        int at = BASELINE + rnd.nextInt(WINDOW);
        x[at] += (20 + rnd.nextDouble() * 30) * sigma;
        if (seed % 3 == 0) {
            // a second lone spike, not adjacent to the first
            int other = BASELINE + (at - BASELINE + 5 + rnd.nextInt(WINDOW - 10)) % WINDOW;
            x[other] += (20 + rnd.nextDouble() * 30) * sigma;
        }
        MetricKind kind = rnd.nextBoolean() ? MetricKind.LATENCY : MetricKind.ERRORS;
        return flatCase("transient", Category.TRANSIENT, seed, x, kind, null, -1);
    }

    // seasonal layout: 3 days of history plus a 1 h window at a 5 min step, daily period
    private static final long SEASON_STEP = 300_000;
    private static final int PER_DAY = 288;
    private static final int SEASON_WINDOW = 12;

    private static Case seasonal(Random rnd, long seed, boolean deviate) {
        double level = 200 + rnd.nextDouble() * 800;
        double amplitude = level * (0.3 + rnd.nextDouble() * 0.4);
        double sigma = level * (0.01 + rnd.nextDouble() * 0.03);
        double phase = rnd.nextDouble() * 2 * Math.PI;
        // the window ends at a random time of the fourth day, often on the steep flank of the curve
        int n = 3 * PER_DAY + 12 + rnd.nextInt(PER_DAY - 12);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            double day = 2 * Math.PI * i / PER_DAY;
            x[i] = level + amplitude * Math.sin(day + phase) + 0.3 * amplitude * Math.sin(2 * day + phase)
                    + rnd.nextGaussian() * sigma;
        }
        MetricKind kind = rnd.nextBoolean() ? MetricKind.THROUGHPUT : MetricKind.LATENCY;
        int start = -1;
        if (deviate) {
            start = n - SEASON_WINDOW + rnd.nextInt(SEASON_WINDOW - 6);
            double amp = (5 + rnd.nextDouble() * 7) * sigma * (kind == MetricKind.THROUGHPUT && rnd.nextBoolean() ? -1 : 1);
            for (int i = start; i < n; i++) {
                x[i] += amp;
            }
        }
        sprinkleGaps(rnd, x, 0.02);
        DetectionSettings settings = DetectionSettings.of(kind).withWindow(Duration.ofMinutes(5L * SEASON_WINDOW))
                .withSeason(Duration.ofDays(1));
        return new Case((deviate ? "seasonal-deviation" : "seasonal-clean") + "#" + seed,
                deviate ? Category.SEASONAL_DEVIATION : Category.SEASONAL_CLEAN, series(x, SEASON_STEP), settings,
                deviate ? Optional.of(AnomalyKind.SEASONAL_DEVIATION) : Optional.empty(),
                deviate ? Optional.of(START + start * SEASON_STEP) : Optional.empty(), SEASON_STEP);
    }

    // the tools' layout: 1 h of baseline plus a 15 min window at a 15 s step, too short for a season
    private static final long TRAFFIC_STEP = 15_000;
    private static final int TRAFFIC_BASELINE = 240;
    private static final int TRAFFIC_WINDOW = 60;

    /**
     * A request rate over 75 minutes of a daily traffic curve (±30…60 % of the level), ending at a
     * random time of day, so most cases sit on a rising or falling flank: the morning climb and the
     * evening decline are no anomaly. Noise of 1…4 % of the level, autocorrelated as a
     * {@code rate()} over overlapping ranges is. With {@code shift}, a surge or a drop of 5…10 sigma
     * from inside the window.
     */
    private static Case traffic(Random rnd, long seed, boolean shift) {
        double level = 20 + rnd.nextDouble() * 2000;
        double amplitude = level * (0.3 + rnd.nextDouble() * 0.3);
        double sigma = level * (0.01 + rnd.nextDouble() * 0.03);
        double endOfDay = rnd.nextDouble();
        int n = TRAFFIC_BASELINE + TRAFFIC_WINDOW;
        double[] x = new double[n];
        double ar = 0;
        for (int i = 0; i < n; i++) {
            double dayFraction = endOfDay - (n - 1 - i) * TRAFFIC_STEP / 86_400_000.0;
            ar = 0.8 * ar + rnd.nextGaussian() * sigma * Math.sqrt(1 - 0.64);
            x[i] = level + amplitude * Math.sin(2 * Math.PI * dayFraction) + ar;
        }
        int start = -1;
        if (shift) {
            start = TRAFFIC_BASELINE + rnd.nextInt(TRAFFIC_WINDOW - 8);
            double amp = (5 + rnd.nextDouble() * 5) * sigma * (rnd.nextBoolean() ? -1 : 1);
            for (int i = start; i < n; i++) {
                x[i] += amp;
            }
        }
        sprinkleGaps(rnd, x, 0.02);
        DetectionSettings settings = DetectionSettings.of(MetricKind.THROUGHPUT)
                .withWindow(Duration.ofMillis(TRAFFIC_STEP * TRAFFIC_WINDOW));
        return new Case((shift ? "traffic-shift" : "traffic-clean") + "#" + seed,
                shift ? Category.TRAFFIC_SHIFT : Category.TRAFFIC_CLEAN, series(x, TRAFFIC_STEP), settings,
                shift ? Optional.of(AnomalyKind.STEP) : Optional.empty(),
                shift ? Optional.of(START + start * TRAFFIC_STEP) : Optional.empty(), TRAFFIC_STEP);
    }

    // the tools' layout for a one-hour window (AnalysisWindow): 4 h of baseline plus the hour at 30 s
    private static final long HOUR_STEP = 30_000;
    private static final int HOUR_BASELINE = 480;
    private static final int HOUR_WINDOW = 120;

    /**
     * A request rate as {@code detect_anomalies} with {@code window: 1h} reads it and judges it: the
     * daily curve of {@link #traffic} over 5 hours, AR(1) noise of 1…4 %, and from inside the window a
     * proportional shift up or down: 3…10 % for a wobble (a newsletter, a cache warming up: no
     * incident), 35…60 % for a surge or a drop. Judged with the tools' settings for
     * {@code request_rate}, minimum changes included, so the backtest measures the shipped limit.
     * Over five hours a straight line fits the curve worse than over 75 minutes, which on its own
     * puts clean traffic several per cent off the expectation.
     */
    private static Case trafficHour(Random rnd, long seed, boolean surge) {
        double level = 20 + rnd.nextDouble() * 2000;
        double amplitude = level * (0.3 + rnd.nextDouble() * 0.3);
        double sigma = level * (0.01 + rnd.nextDouble() * 0.03);
        double endOfDay = rnd.nextDouble();
        int n = HOUR_BASELINE + HOUR_WINDOW;
        int start = HOUR_BASELINE + rnd.nextInt(HOUR_WINDOW - 8);
        double share = (surge ? 0.35 + rnd.nextDouble() * 0.25 : 0.03 + rnd.nextDouble() * 0.07) * (rnd.nextBoolean() ? 1 : -1);
        double[] x = new double[n];
        double ar = 0;
        for (int i = 0; i < n; i++) {
            double dayFraction = endOfDay - (n - 1 - i) * HOUR_STEP / 86_400_000.0;
            ar = 0.8 * ar + rnd.nextGaussian() * sigma * Math.sqrt(1 - 0.64);
            double curve = level + amplitude * Math.sin(2 * Math.PI * dayFraction);
            x[i] = curve * (i >= start ? 1 + share : 1) + ar;
        }
        sprinkleGaps(rnd, x, 0.02);
        DetectionSettings settings = CuratedMetricNames.detectionSettings(CuratedMetricNames.REQUEST_RATE).withWindow(Duration.ofHours(1));
        return new Case((surge ? (share > 0 ? "traffic-surge" : "traffic-drop") : "traffic-wobble") + "#" + seed,
                surge ? Category.TRAFFIC_SURGE : Category.TRAFFIC_WOBBLE, series(x, HOUR_STEP), settings,
                surge ? Optional.of(AnomalyKind.STEP) : Optional.empty(),
                surge ? Optional.of(START + start * HOUR_STEP) : Optional.empty(), HOUR_STEP);
    }

    /**
     * The shape of the demo's memory when {@code detect_anomalies} reads it with {@code window: 1h}
     * (4 h of baseline and the hour at 30 s): a working set with a slow drift, a sine of 2…5 % of
     * the level with a period of 4…8 h, noise of 0.5…1.5 %, and from inside the window an incident
     * that adds 20…50 % of the level, reaching it over 0…8 points (the demo's incident takes 4
     * minutes, 8 points). The drift rises in the step's direction for the last half hour or more
     * before it, so against the flat baseline's median it is often already 2…4 sigma off when the
     * step comes. Three in four are memory judged with the tools' settings (up only, 10 % relative
     * minimum), one in four a request rate that drops by 25…50 % while the drift falls (two-sided,
     * the trend baseline where the drift is clear, the 20 % minimum). The truth onset is the first
     * point the incident moved.
     */
    private static Case stepOnDrift(Random rnd, long seed) {
        boolean drop = seed % 4 == 3;
        double level = drop ? 20 + rnd.nextDouble() * 2000 : 1e8 + rnd.nextDouble() * 9e8;
        double amplitude = level * (0.02 + rnd.nextDouble() * 0.03);
        double periodPoints = (4 + rnd.nextDouble() * 4) * 3_600_000.0 / HOUR_STEP;
        double sigma = level * (0.005 + rnd.nextDouble() * 0.01);
        double share = drop ? 0.25 + rnd.nextDouble() * 0.25 : 0.2 + rnd.nextDouble() * 0.3;
        int rise = rnd.nextInt(9);
        int n = HOUR_BASELINE + HOUR_WINDOW;
        int start = HOUR_BASELINE + 10 + rnd.nextInt(HOUR_WINDOW - 30);
        // the drift's phase at the step: between a little before its midline and its crest, so it has been rising
        double phaseAtStep = -Math.PI / 6 + rnd.nextDouble() * (Math.PI / 2 + Math.PI / 6);
        double sign = drop ? -1 : 1;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            double phase = phaseAtStep + 2 * Math.PI * (i - start) / periodPoints;
            double incident = i < start ? 0 : Math.min(1, (i - start + 1) / (double) (rise + 1));
            x[i] = level + sign * (amplitude * Math.sin(phase) + level * share * incident) + rnd.nextGaussian() * sigma;
        }
        sprinkleGaps(rnd, x, 0.02);
        String metric = drop ? CuratedMetricNames.REQUEST_RATE : CuratedMetricNames.MEMORY;
        DetectionSettings settings = CuratedMetricNames.detectionSettings(metric).withWindow(Duration.ofHours(1));
        return new Case((drop ? "drop-on-drift" : "step-on-drift") + "#" + seed, Category.STEP_ON_DRIFT, series(x, HOUR_STEP),
                settings, Optional.of(AnomalyKind.STEP), Optional.of(START + start * HOUR_STEP), HOUR_STEP);
    }

    /**
     * A p99 latency as the tools read it (1 h of baseline and a 15 min window at 15 s, the tools'
     * {@code latency_p99} settings): 20…500 ms with 3…10 % noise and 2 % gaps. With {@code incident},
     * from inside the window the percentile lies above the largest histogram bucket, 8…40 times the
     * level, so {@code histogram_quantile} answers {@code +Inf}: a third of the cases at once
     * ({@code -at-once}), a third after a climb over 2…6 points to 2…5 times the level
     * ({@code -after-climb}), a third at once but hovering at the bucket, one answer in four its bound
     * ({@code -hovering}). Half the cases also had 1…3 isolated {@code +Inf} answers in the
     * baseline. Without, 4…8 isolated {@code +Inf} answers (never two adjacent) anywhere: blips, no
     * incident. The truth onset is the first point the incident moved.
     */
    private static Case latencyAboveBucket(Random rnd, long seed, boolean incident) {
        double level = 0.02 + rnd.nextDouble() * 0.48;
        double sigma = level * (0.03 + rnd.nextDouble() * 0.07);
        double bucket = level * (8 + rnd.nextDouble() * 32);
        int n = TRAFFIC_BASELINE + TRAFFIC_WINDOW;
        double[] x = gaussian(rnd, n, level, sigma);
        int start = -1;
        String variant = "";
        if (incident) {
            start = TRAFFIC_BASELINE + rnd.nextInt(TRAFFIC_WINDOW - 8);
            variant = switch ((int) (seed % 3)) {
                case 0 -> "-at-once";
                case 1 -> "-after-climb";
                default -> "-hovering";
            };
            int climb = variant.equals("-after-climb") ? 2 + rnd.nextInt(5) : 0;
            double hover = variant.equals("-hovering") ? 0.25 : 0;
            double peak = level * (2 + rnd.nextDouble() * 3);
            for (int i = start; i < n; i++) {
                if (i < start + climb) {
                    x[i] = level + (peak - level) * (i - start + 1) / climb;
                } else {
                    x[i] = rnd.nextDouble() < hover ? bucket : Double.POSITIVE_INFINITY;
                }
            }
            if (seed % 2 == 0) {
                for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                    x[10 + 3 * rnd.nextInt((TRAFFIC_BASELINE - 20) / 3)] = Double.POSITIVE_INFINITY;
                }
            }
        } else {
            // every third point at most, so no two blips touch
            for (int k = 4 + rnd.nextInt(5); k > 0; k--) {
                x[3 * rnd.nextInt(n / 3)] = Double.POSITIVE_INFINITY;
            }
        }
        sprinkleGaps(rnd, x, 0.02);
        return toolsCase(incident ? "latency-above-bucket" + variant : "latency-bucket-blips",
                incident ? Category.LATENCY_ABOVE_BUCKET : Category.LATENCY_BUCKET_BLIPS, seed, x, CuratedMetricNames.LATENCY_P99, start);
    }

    /**
     * An error rate as the tools read it (1 h of baseline and a 15 min window at 15 s, the tools'
     * {@code error_rate} settings) that is exactly 0 but for stray failed requests: 2…6 isolated
     * answers or short runs of 2…4 points at 0.05…0.4 %, all under the tools' 0.5 % minimum. With
     * {@code incident}, from inside the window a step to 1…10 % with 10 % noise. 2 % gaps.
     */
    private static Case errorsFromZero(Random rnd, long seed, boolean incident) {
        int n = TRAFFIC_BASELINE + TRAFFIC_WINDOW;
        double[] x = new double[n];
        for (int k = 2 + rnd.nextInt(5); k > 0; k--) {
            int at = rnd.nextInt(n - 4);
            int len = rnd.nextBoolean() ? 1 : 2 + rnd.nextInt(3);
            double stray = 0.0005 + rnd.nextDouble() * 0.0035;
            for (int i = at; i < at + len; i++) {
                x[i] = stray;
            }
        }
        int start = -1;
        if (incident) {
            start = TRAFFIC_BASELINE + rnd.nextInt(TRAFFIC_WINDOW - 8);
            double rate = 0.01 + rnd.nextDouble() * 0.09;
            for (int i = start; i < n; i++) {
                x[i] = rate * (1 + 0.1 * rnd.nextGaussian());
            }
        }
        sprinkleGaps(rnd, x, 0.02);
        return toolsCase(incident ? "errors-from-zero" : "errors-stray", incident ? Category.ERRORS_FROM_ZERO : Category.ERRORS_STRAY,
                seed, x, CuratedMetricNames.ERROR_RATE, start);
    }

    /** Raw metric names the tools know no unit of (MetricKind.OTHER: both directions count). */
    private static final List<String> RAW_NAMES = List.of("app_queue_depth", "jvm_threads_live", "process_open_fds",
            "kafka_consumergroup_lag", "config_replicas_desired");

    /**
     * A raw metric that barely moves: a configured value, a pool size, a gauge that a backend
     * recomputes with floating-point noise. Its robust scale is tiny (1e-7…1e-4 of the level), so
     * without a floor relative to the level a wiggle of a fraction of a per cent, a value rounded
     * differently for a few scrapes, reads as hundreds of sigmas; at exactly 0 the floating-point
     * noise (1e-16…1e-13) is all there is. With {@code step}, a real change from inside the window:
     * up or down by 10…100 % (down by at most 60 %), or from 0 to 0.01…1000.
     */
    private static Case nearConstantRaw(Random rnd, long seed, boolean step) {
        int n = TRAFFIC_BASELINE + TRAFFIC_WINDOW;
        boolean atZero = rnd.nextDouble() < 0.25;
        double level = atZero ? 0 : Math.pow(10, -3 + rnd.nextDouble() * 9);
        double jitter = atZero ? Math.pow(10, -16 + rnd.nextDouble() * 3) : level * Math.pow(10, -7 + rnd.nextDouble() * 3);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = level + rnd.nextGaussian() * jitter;
        }
        for (int k = 2 + rnd.nextInt(4); k >= 0; k--) {
            // k = 0 puts the last wiggle in the window, long enough to dwell: the one a tiny scale would call an anomaly
            int len = k == 0 ? 8 + rnd.nextInt(5) : 3 + rnd.nextInt(10);
            int at = k == 0 ? TRAFFIC_BASELINE + rnd.nextInt(TRAFFIC_WINDOW - len) : rnd.nextInt(n - len);
            double wiggle = (atZero ? jitter * (2 + rnd.nextDouble() * 8) : level * (1e-4 + rnd.nextDouble() * 4.9e-3))
                    * (rnd.nextBoolean() ? 1 : -1);
            for (int i = at; i < at + len; i++) {
                x[i] += wiggle;
            }
        }
        int start = -1;
        if (step) {
            start = TRAFFIC_BASELINE + rnd.nextInt(TRAFFIC_WINDOW - 8);
            boolean down = !atZero && rnd.nextBoolean();
            double to = atZero ? Math.pow(10, -2 + rnd.nextDouble() * 5)
                    : level * (down ? 1 - (0.1 + rnd.nextDouble() * 0.5) : 1 + (0.1 + rnd.nextDouble() * 0.9));
            for (int i = start; i < n; i++) {
                x[i] += to - level;
            }
        }
        sprinkleGaps(rnd, x, 0.02);
        String metric = RAW_NAMES.get(rnd.nextInt(RAW_NAMES.size()));
        return toolsCase((step ? "raw-step" : "raw-steady") + (atZero ? "-at-zero" : "") + "-" + metric, step ? Category.RAW_STEP
                : Category.RAW_STEADY, seed, x, metric, start);
    }

    /** A case on the tools' 15-minute layout, judged with the tools' settings for {@code metric}; a step from {@code onsetIndex}. */
    private static Case toolsCase(String name, Category category, long seed, double[] x, String metric, int onsetIndex) {
        DetectionSettings settings = CuratedMetricNames.detectionSettings(metric)
                .withWindow(Duration.ofMillis(TRAFFIC_STEP * TRAFFIC_WINDOW));
        return new Case(name + "#" + seed, category, series(x, TRAFFIC_STEP), settings,
                onsetIndex < 0 ? Optional.empty() : Optional.of(AnomalyKind.STEP),
                onsetIndex < 0 ? Optional.empty() : Optional.of(START + onsetIndex * TRAFFIC_STEP), TRAFFIC_STEP);
    }

    /**
     * A level shift inside the baseline that the window simply continues: a deploy or a failover
     * an hour ago moved the level, and nothing has changed since. Half the cases are request rates
     * on the traffic curve (the trend baseline applies), half latencies or error rates on a flat
     * level. The shift is 5…10 sigma, up or down, anywhere in the baseline's middle 80 %.
     */
    private static Case baselineShift(Random rnd, long seed) {
        boolean traffic = seed % 2 == 0;
        int baseline = traffic ? TRAFFIC_BASELINE : BASELINE;
        int n = baseline + (traffic ? TRAFFIC_WINDOW : WINDOW);
        long step = traffic ? TRAFFIC_STEP : STEP;
        double level = traffic ? 20 + rnd.nextDouble() * 2000 : 0.5 + rnd.nextDouble() * 2;
        double sigma = level * (0.01 + rnd.nextDouble() * 0.03);
        double amplitude = traffic ? level * (0.3 + rnd.nextDouble() * 0.3) : 0;
        double endOfDay = rnd.nextDouble();
        double[] x = new double[n];
        double ar = 0;
        for (int i = 0; i < n; i++) {
            double dayFraction = endOfDay - (n - 1 - i) * step / 86_400_000.0;
            ar = traffic ? 0.8 * ar + rnd.nextGaussian() * sigma * Math.sqrt(1 - 0.64) : rnd.nextGaussian() * sigma;
            x[i] = level + amplitude * Math.sin(2 * Math.PI * dayFraction) + ar;
        }
        int at = baseline / 10 + rnd.nextInt(baseline * 8 / 10);
        double amp = (5 + rnd.nextDouble() * 5) * sigma * (rnd.nextBoolean() ? -1 : 1);
        for (int i = at; i < n; i++) {
            x[i] += amp;
        }
        sprinkleGaps(rnd, x, 0.02);
        MetricKind kind = traffic ? MetricKind.THROUGHPUT : rnd.nextBoolean() ? MetricKind.LATENCY : MetricKind.ERRORS;
        DetectionSettings settings = DetectionSettings.of(kind)
                .withWindow(traffic ? Duration.ofMillis(TRAFFIC_STEP * TRAFFIC_WINDOW) : WINDOW_LENGTH);
        return new Case((traffic ? "traffic-baseline-shift" : "baseline-shift") + (amp > 0 ? "-up" : "-down") + "#" + seed,
                Category.BASELINE_SHIFT, series(x, step), settings, Optional.of(AnomalyKind.STEP), Optional.of(START + at * step),
                step);
    }

    private static Case flatCase(String name, Category category, long seed, double[] x, MetricKind kind,
            AnomalyKind expectedKind, int onsetIndex) {
        DetectionSettings settings = DetectionSettings.of(kind).withWindow(WINDOW_LENGTH);
        return new Case(name + "#" + seed, category, series(x, STEP), settings, Optional.ofNullable(expectedKind),
                onsetIndex < 0 ? Optional.empty() : Optional.of(START + onsetIndex * STEP), STEP);
    }

    private static Series series(double[] x, long step) {
        long[] t = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            t[i] = START + i * step;
        }
        return new Series(Map.of("case", "synthetic"), t, x);
    }

    private static double[] gaussian(Random rnd, int n, double level, double sigma) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = level + rnd.nextGaussian() * sigma;
        }
        return x;
    }

    /** Student-t noise scaled to unit variance. */
    private static double studentT(Random rnd, int dof) {
        double chi = 0;
        for (int i = 0; i < dof; i++) {
            double g = rnd.nextGaussian();
            chi += g * g;
        }
        return rnd.nextGaussian() / Math.sqrt(chi / dof) * Math.sqrt((dof - 2.0) / dof);
    }

    private static void sprinkleGaps(Random rnd, double[] x, double fraction) {
        for (int i = 0; i < x.length; i++) {
            if (rnd.nextDouble() < fraction) {
                x[i] = Double.NaN;
            }
        }
    }
}
