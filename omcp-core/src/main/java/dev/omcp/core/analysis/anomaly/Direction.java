package dev.omcp.core.analysis.anomaly;

import java.util.Locale;

/** Which way a series deviated from its baseline. */
public enum Direction {
    UP,
    DOWN,
    /** No deviation (normal or not enough data). */
    NONE;

    /** The wire name: {@code up}, {@code down}, {@code none}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    int sign() {
        return this == UP ? 1 : this == DOWN ? -1 : 0;
    }
}
