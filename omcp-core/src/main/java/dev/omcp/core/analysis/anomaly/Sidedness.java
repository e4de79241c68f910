package dev.omcp.core.analysis.anomaly;

/** Which deviations matter for a signal. */
public enum Sidedness {
    /** Only increases are anomalous (latency, errors, saturation): a drop in latency is good news. */
    INCREASE,
    /** Only decreases are anomalous (for example free disk space). */
    DECREASE,
    /** Both directions matter (request rate: a drop can mean an outage upstream). */
    BOTH;

    boolean allows(Direction direction) {
        return switch (this) {
            case INCREASE -> direction == Direction.UP;
            case DECREASE -> direction == Direction.DOWN;
            case BOTH -> direction != Direction.NONE;
        };
    }
}
