package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import java.util.List;

/** A connector that finds traces (manifest capability {@code queryTraces}); it takes part in {@code query_traces}. */
public interface TracesCapability {
    /** Finds and summarises traces of one service. */
    List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException;

    /**
     * Finds and summarises traces of one service, with what the answer lacks: the call the gateway
     * makes. A connector whose backend can leave out part of an answer (a trace gone before it was
     * read) overrides it to say so; by default it is {@link #queryTraces} with nothing missing.
     */
    default TraceResult searchTraces(TraceQuery query) throws ConnectorException {
        return new TraceResult(queryTraces(query), List.of());
    }
}
