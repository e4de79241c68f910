package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.MetricInfo;
import java.util.List;

/** A connector that can list the metrics its backend knows. */
public interface MetricDiscoveryCapability {
    /**
     * Lists metrics, optionally only those seen for one service.
     *
     * <p>The gateway reads every name of an answer for a service as a metric that service exports: {@code query_metrics}
     * offers them when a metric has no series for the service (the name it likely meant, its metrics with similar names),
     * and the service listing of a plugin that also lists services leaves out a name whose metrics are all the gateway's
     * own anomaly series. So for a service the backend does not know, or that has no metrics, return an empty list.
     * Never fall back to every metric (the hints would offer other services' metrics as this one's), and do not throw:
     * a failure counts as your source failing, which loses its hints and fails that listing in that call. Throw only
     * when the backend could not be asked or its answer could not be read.
     *
     * @param service a service name, or empty string for every metric
     * @param limit the most metrics to return
     * @return at most {@code limit} metrics; empty when the backend knows none for {@code service}
     */
    List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException;
}
