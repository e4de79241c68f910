package dev.omcp.core.analysis.anomaly;

import java.util.Locale;

/**
 * The smallest move worth calling an anomaly, whatever its sigma: at least {@code absolute} in the
 * series' unit and at least {@code relative} of the expected level. Both apply when both are set.
 * A robust z score says a move is unusual for this series; these say it is large enough to matter
 * to someone running the system (one stray failed request on a flat-zero error rate, or a request
 * rate 6 % above a straight line drawn through a curved day, are unusual but are no incident).
 */
record MinimumChange(double absolute, double relative) {

    MinimumChange {
        if (!(absolute >= 0) || Double.isInfinite(absolute)) {
            throw new IllegalArgumentException("minimum change must be a finite number >= 0, got " + absolute);
        }
        if (!(relative >= 0) || Double.isInfinite(relative)) {
            throw new IllegalArgumentException("minimum relative change must be a finite number >= 0, got " + relative);
        }
    }

    boolean none() {
        return absolute == 0 && relative == 0;
    }

    /**
     * The smallest scale deviations are measured in that this limit implies: the absolute minimum
     * divided by the default sensitivity's level threshold, so a move of exactly the minimum scores
     * that threshold (3.5 sigma) on a baseline quieter than the minimum. The minimum says which
     * differences in this unit are worth telling apart; a baseline whose noise is finer than that
     * (a flat-zero error rate) has no finer yardstick worth trusting, and measured against the noise
     * alone, any move off exact zeros was millions of sigmas. 0 without an absolute minimum.
     */
    double scaleFloor() {
        return absolute / AnomalyDetector.DEFAULT_SENSITIVITY.levelThreshold();
    }

    /** Whether a move of {@code change} (either sign) away from {@code expected} is large enough. */
    boolean metBy(double change, double expected) {
        double size = Math.abs(change);
        return size >= absolute && size >= relative * Math.abs(expected);
    }

    /** The limits in words, for a note: "20 % of the expected level", "0.005", or both joined by "and". */
    String describe() {
        String abs = String.format(Locale.ROOT, "%.4g", absolute);
        String rel = String.format(Locale.ROOT, "%.3g %% of the expected level", relative * 100);
        if (absolute > 0 && relative > 0) {
            return abs + " and " + rel;
        }
        return absolute > 0 ? abs : rel;
    }
}
