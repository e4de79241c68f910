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

    /**
     * As {@link #aggregateLogs(LogAggregation)}, telling {@code listener} the backend query just
     * before it is sent; see {@link LogsCapability#queryLogs(dev.omcp.sdk.query.LogQuery, QueryListener)}
     * for why. The gateway calls this method.
     *
     * <p>The default calls {@link #aggregateLogs(LogAggregation)} and tells nothing. A connector
     * that overrides it reports the query whose answer it returns (equal to
     * {@link MetricResult#resolvedSeries()} on success), not the lookups it may make first.
     *
     * @param listener hears each backend query just before it is sent; never {@code null}
     */
    default MetricResult aggregateLogs(LogAggregation aggregation, QueryListener listener) throws ConnectorException {
        return aggregateLogs(aggregation);
    }
}
