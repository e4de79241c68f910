package dev.omcp.core.analysis.health;

import java.util.Locale;

/** The health of a service or a signal, from best to worst; {@link #UNKNOWN} when nothing returned data. */
public enum HealthStatus {
    HEALTHY,
    DEGRADED,
    CRITICAL,
    UNKNOWN;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    HealthStatus worse(HealthStatus other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}
