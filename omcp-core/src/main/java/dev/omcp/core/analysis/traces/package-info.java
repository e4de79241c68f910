/**
 * {@code query_traces} merging (spec 4.4): de-duplication by trace id, ranking, capping and
 * percentiles over the merged set. Entry point: {@link dev.omcp.core.analysis.traces.TraceMerger}.
 */
package dev.omcp.core.analysis.traces;
