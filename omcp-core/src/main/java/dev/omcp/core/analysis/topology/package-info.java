/**
 * Topology as the analyses see it: the graphs of several sources merged by canonical node id, with
 * service-name resolution, placement and ownership roots. Entry point:
 * {@link dev.omcp.core.analysis.topology.TopologyGraph#merge}.
 */
package dev.omcp.core.analysis.topology;
