package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.MetricInfo;
import java.util.List;

/** A connector that can list the metrics its backend knows. */
public interface MetricDiscoveryCapability {
    /**
     * Lists metrics, optionally only those seen for one service.
     *
     * @param service a service name, or empty string for every metric
     * @param limit the most metrics to return
     */
    List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException;
}
