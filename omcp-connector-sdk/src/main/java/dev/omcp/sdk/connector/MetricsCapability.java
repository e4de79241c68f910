package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;

/** A connector that answers metric queries (manifest capability {@code queryMetrics}). */
public interface MetricsCapability {
    /** Runs a range query for one service. */
    MetricResult queryMetrics(MetricQuery query) throws ConnectorException;
}
