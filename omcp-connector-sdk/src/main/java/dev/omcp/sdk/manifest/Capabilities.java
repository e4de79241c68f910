package dev.omcp.sdk.manifest;

/**
 * The manifest's {@code capabilities} object (spec 2.2): what a connector declares it can do.
 *
 * @param queryMetrics answers metric queries
 * @param queryLogs answers log searches
 * @param listServices lists services
 * @param queryTraces finds traces (takes part in {@code query_traces})
 * @param topology knows resource relations
 * @see dev.omcp.sdk.connector.DeclaredCapabilities which capability interface each flag declares
 */
public record Capabilities(boolean queryMetrics, boolean queryLogs, boolean listServices, boolean queryTraces, boolean topology) {}
