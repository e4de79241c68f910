package dev.omcp.sdk.query;

import java.util.List;
import java.util.Objects;

/**
 * The answer to a metric discovery with what the backend's answer left out.
 *
 * @param metrics the metrics, as {@link dev.omcp.sdk.connector.MetricDiscoveryCapability#discoverMetrics} returns them: at
 *     most the limit asked, none for a service the backend does not know
 * @param warnings what the list may lack, one short line per kind of gap (counted, not one line per name): names the
 *     connector could not keep (too long, not strings), a store or shard a query frontend could not ask. Backend text, so
 *     the gateway treats it as untrusted: it shows at most ten distinct warnings per source to the agent as
 *     {@code backendWarnings}, each made one line of at most 300 characters with URLs taken out. Empty when nothing was
 *     left out
 */
public record MetricDiscovery(List<MetricInfo> metrics, List<String> warnings) {
    public MetricDiscovery {
        metrics = List.copyOf(Objects.requireNonNull(metrics, "metrics"));
        warnings = List.copyOf(Objects.requireNonNull(warnings, "warnings"));
    }

    /** A discovery that left nothing out. */
    public MetricDiscovery(List<MetricInfo> metrics) {
        this(metrics, List.of());
    }
}
