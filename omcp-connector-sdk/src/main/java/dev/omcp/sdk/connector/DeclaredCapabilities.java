package dev.omcp.sdk.connector;

import dev.omcp.sdk.manifest.Capabilities;
import java.util.List;

/**
 * Which manifest flag declares which capability interface. Tools route to a connector only when its
 * manifest declares the capability <em>and</em> the connector implements the interface; a flag
 * without the interface, or the interface without the flag, is ignored.
 *
 * <p>Sub-capabilities follow their signal: {@link MetricDiscoveryCapability} is declared by
 * {@code queryMetrics}, {@link LogAggregatesCapability} by {@code queryLogs}.
 */
public final class DeclaredCapabilities {
    /** Every capability interface a connector may implement. */
    public static final List<Class<?>> INTERFACES = List.of(
            MetricsCapability.class, MetricDiscoveryCapability.class, LogsCapability.class, LogAggregatesCapability.class,
            ServiceListingCapability.class, TracesCapability.class, TopologyCapability.class);

    private DeclaredCapabilities() {}

    /**
     * Whether {@code declared} covers {@code capability}.
     *
     * @param declared the manifest's capabilities
     * @param capability one of {@link #INTERFACES}
     * @return whether the manifest declares it; {@code false} for any other type
     */
    public static boolean declares(Capabilities declared, Class<?> capability) {
        if (capability == MetricsCapability.class || capability == MetricDiscoveryCapability.class) {
            return declared.queryMetrics();
        }
        if (capability == LogsCapability.class || capability == LogAggregatesCapability.class) {
            return declared.queryLogs();
        }
        if (capability == ServiceListingCapability.class) {
            return declared.listServices();
        }
        if (capability == TracesCapability.class) {
            return declared.queryTraces();
        }
        if (capability == TopologyCapability.class) {
            return declared.topology();
        }
        return false;
    }

    /**
     * Whether {@code connector} may serve {@code capability}: declared and implemented.
     *
     * @param declared the manifest's capabilities
     * @param connector the live connector
     * @param capability one of {@link #INTERFACES}
     * @return whether tools may route that capability to the connector
     */
    public static boolean serves(Capabilities declared, Connector connector, Class<?> capability) {
        return declares(declared, capability) && capability.isInstance(connector);
    }
}
