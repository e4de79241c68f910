/**
 * Root-cause ranking of anomalous services from topology, onset and severity, with every factor's
 * contribution. Entry point: {@link dev.omcp.core.analysis.rootcause.RootCauseRanker}.
 */
package dev.omcp.core.analysis.rootcause;
