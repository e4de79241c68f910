package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;

/** A connector that answers log searches (manifest capability {@code queryLogs}). */
public interface LogsCapability {
    /** Finds log lines, filtered on the backend. */
    LogResult queryLogs(LogQuery query) throws ConnectorException;
}
