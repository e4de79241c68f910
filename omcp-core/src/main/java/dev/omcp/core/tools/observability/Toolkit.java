package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.SourceRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * What every observability tool needs: the live sources, the clock, and the time budget of a
 * backend fan-out.
 *
 * @param sources the live sources, routed by capability
 * @param clock the gateway's clock
 * @param perSourceTimeout how long one source may take
 * @param deadline how long a whole tool call may wait for its sources
 * @param catalog the service catalog that enriches results (empty when none is configured)
 */
public record Toolkit(SourceRegistry sources, Clock clock, Duration perSourceTimeout, Duration deadline, ServiceCatalog catalog) {
    public Toolkit {
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(perSourceTimeout, "perSourceTimeout");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(catalog, "catalog");
        if (perSourceTimeout.compareTo(deadline) > 0) {
            throw new IllegalArgumentException("the per-source timeout must not exceed the overall deadline");
        }
    }
}
