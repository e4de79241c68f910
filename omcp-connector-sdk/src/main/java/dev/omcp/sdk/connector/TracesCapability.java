package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceSummary;
import java.util.List;

/** A connector that finds traces (manifest capability {@code queryTraces}); it takes part in {@code query_traces}. */
public interface TracesCapability {
    /** Finds and summarises traces of one service. */
    List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException;
}
