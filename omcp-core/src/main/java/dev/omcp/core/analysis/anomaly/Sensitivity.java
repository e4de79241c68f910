package dev.omcp.core.analysis.anomaly;

import java.util.Locale;

/**
 * How readily the detector calls something an anomaly. Each level is a set of thresholds in units
 * of the baseline's robust standard deviation (see docs/analysis.md for the backtest figures of
 * each). {@link AnomalyDetector#DEFAULT_SENSITIVITY} is the level the tools use when the caller
 * names none.
 */
public enum Sensitivity {
    /** Only large, long-lasting deviations: fewer alerts, misses short bursts. */
    LOW(5.0, 5, 4.0, 4.0, 3.5),
    /** The shipped default: sustained deviations of about 3.5 sigma or more. */
    MEDIUM(3.5, 3, 3.0, 2.5, 2.0),
    /** Catches smaller and shorter deviations at the cost of more false alarms. */
    HIGH(3.0, 2, 2.5, 2.0, 1.5);

    private final double levelThreshold;
    private final int dwellPoints;
    private final double trendZ;
    private final double rampRise;
    private final double rampEndLevel;

    Sensitivity(double levelThreshold, int dwellPoints, double trendZ, double rampRise, double rampEndLevel) {
        this.levelThreshold = levelThreshold;
        this.dwellPoints = dwellPoints;
        this.trendZ = trendZ;
        this.rampRise = rampRise;
        this.rampEndLevel = rampEndLevel;
    }

    /** A point deviates when its robust z score reaches this value. */
    public double levelThreshold() {
        return levelThreshold;
    }

    /**
     * The dwell rule: a run must hold at least this many deviating points before it counts, so a
     * single spike is not an incident.
     */
    public int dwellPoints() {
        return dwellPoints;
    }

    /** The Mann-Kendall z a window must reach before a slow ramp counts as a trend. */
    public double trendZ() {
        return trendZ;
    }

    /** The rise over the window (Theil-Sen slope times window length), in sigmas, a ramp needs. */
    public double rampRise() {
        return rampRise;
    }

    /** How far above the baseline, in sigmas, the ramp's fitted end must be. */
    public double rampEndLevel() {
        return rampEndLevel;
    }

    /** The wire name: {@code low}, {@code medium} or {@code high}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a wire name, case-insensitively.
     *
     * @throws IllegalArgumentException naming the allowed values when {@code text} is none of them
     */
    public static Sensitivity parse(String text) {
        if (text != null) {
            for (Sensitivity s : values()) {
                if (s.wireName().equalsIgnoreCase(text.strip())) {
                    return s;
                }
            }
        }
        throw new IllegalArgumentException("sensitivity must be one of low, medium, high; got '" + text + "'");
    }
}
