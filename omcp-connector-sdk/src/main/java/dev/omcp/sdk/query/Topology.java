package dev.omcp.sdk.query;

import java.util.List;

/**
 * A snapshot of resources and their relations.
 *
 * @param nodes the resources
 * @param edges the relations between them
 */
public record Topology(List<TopologyNode> nodes, List<TopologyEdge> edges) {
    public Topology {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }
}
