package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.MetricResult;

/** A logs connector that computes aggregates on the backend instead of returning lines. */
public interface LogAggregatesCapability {
    /**
     * Computes an aggregate over log lines.
     *
     * @return the aggregate as series; {@link MetricResult#resolvedSeries()} holds the backend query
     */
    MetricResult aggregateLogs(LogAggregation aggregation) throws ConnectorException;
}
