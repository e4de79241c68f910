package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;

/** A connector that answers log searches (manifest capability {@code queryLogs}). */
public interface LogsCapability {
    /** Finds log lines, filtered on the backend. */
    LogResult queryLogs(LogQuery query) throws ConnectorException;

    /**
     * As {@link #queryLogs(LogQuery)}, telling {@code listener} the backend query just before it is
     * sent, so that a search that fails or runs out of time can still be shown with the query that
     * was refused or too slow. The gateway calls this method.
     *
     * <p>The default calls {@link #queryLogs(LogQuery)} and tells nothing: a connector written
     * before this method works unchanged, and its failures are reported without a query. A
     * connector that overrides it reports from the code that sends (so the text is the one sent,
     * and equal to {@link LogResult#resolvedQuery()} when the call succeeds), and implements
     * {@link #queryLogs(LogQuery)} as {@code queryLogs(query, QueryListener.NONE)}.
     *
     * @param listener hears each backend query just before it is sent; never {@code null}
     */
    default LogResult queryLogs(LogQuery query, QueryListener listener) throws ConnectorException {
        return queryLogs(query);
    }
}
