package dev.omcp.core.tools.observability;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Where a window that ends "now" ends, for tools whose answers people read. */
final class WindowEnd {
    private WindowEnd() {}

    /**
     * Now, rounded up to a whole second: windows read {@code 10:00:01Z}, not
     * {@code 10:00:00.263817Z}, and rounding up never cuts off what was recorded a moment ago (an
     * anomaly score {@code detect_anomalies} recorded just before).
     */
    static Instant endOfCurrentSecond(Clock clock) {
        Instant now = clock.instant();
        Instant whole = now.truncatedTo(ChronoUnit.SECONDS);
        return whole.equals(now) ? now : whole.plusSeconds(1);
    }
}
