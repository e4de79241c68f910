package dev.omcp.core.analysis.anomaly;

/** The shape of an anomaly. */
public enum AnomalyKind {
    /** A sustained burst that has already returned to the baseline by the end of the window. */
    SPIKE("spike"),
    /** A level shift that still holds at the end of the window. */
    STEP("step"),
    /** A steady climb (or fall): the window trends away from the baseline. */
    RAMP("ramp"),
    /** A deviation from what the same phase of previous periods (for example yesterday at this hour) predicts. */
    SEASONAL_DEVIATION("seasonal-deviation");

    private final String wireName;

    AnomalyKind(String wireName) {
        this.wireName = wireName;
    }

    /** The wire name: {@code spike}, {@code step}, {@code ramp} or {@code seasonal-deviation}. */
    public String wireName() {
        return wireName;
    }
}
