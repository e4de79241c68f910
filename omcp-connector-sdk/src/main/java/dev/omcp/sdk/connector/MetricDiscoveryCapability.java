package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.MetricDiscovery;
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
     * when the backend could not be asked or its answer could not be read. The gateway asks through
     * {@link #metricDiscovery(String, int)}, which by default calls this method.
     *
     * @param service a service name, or empty string for every metric
     * @param limit the most metrics to return
     * @return at most {@code limit} metrics; empty when the backend knows none for {@code service}
     */
    List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException;

    /**
     * The metrics with what the discovery left out: the call the gateway makes. A connector whose backend answers part of a
     * list it cannot read whole (names too long to keep, a query frontend that could not ask every store) overrides it to
     * say so, one warning per kind of gap with a count rather than one per name, and implements
     * {@link #discoverMetrics(String, int)} as {@code metricDiscovery(service, limit).metrics()}. The metrics follow the
     * contract of {@link #discoverMetrics(String, int)}: at most {@code limit}, none (and no failure) for a service the
     * backend does not know. By default it is {@link #discoverMetrics(String, int)} with nothing left out, so a connector
     * written before this method works unchanged.
     *
     * <p>The gateway shows the warnings beside the answers the names feed ({@code query_metrics}' name suggestions,
     * {@code detect_anomalies}' corrections), so the agent knows a name it was not offered may still exist.
     *
     * @param service a service name, or empty string for every metric
     * @param limit the most metrics to return
     */
    default MetricDiscovery metricDiscovery(String service, int limit) throws ConnectorException {
        return new MetricDiscovery(discoverMetrics(service, limit));
    }
}
