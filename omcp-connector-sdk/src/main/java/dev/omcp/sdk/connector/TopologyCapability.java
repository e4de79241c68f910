package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.Topology;

/** A connector that knows how resources relate (a cluster, a service mesh). */
public interface TopologyCapability {
    /**
     * The current topology.
     *
     * @param namespace only resources of this namespace (and the cluster-wide ones they relate to),
     *     or empty string for everything
     */
    Topology topology(String namespace) throws ConnectorException;
}
