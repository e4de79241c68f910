package dev.omcp.sdk.query;

import java.util.List;

/**
 * A snapshot of resources and their relations.
 *
 * @param nodes the resources
 * @param edges the relations between them
 * @param gaps what the snapshot lacks or may have wrong, one short line each (a kind the backend
 *     refused to list, one listed only in part, one that may be out of date): a blast radius over it
 *     may miss resources, and the tools tell the agent so. Empty when the source knows of none
 */
public record Topology(List<TopologyNode> nodes, List<TopologyEdge> edges, List<String> gaps) {
    public Topology {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        gaps = List.copyOf(gaps);
    }

    /** A snapshot the source knows to be complete. */
    public Topology(List<TopologyNode> nodes, List<TopologyEdge> edges) {
        this(nodes, edges, List.of());
    }
}
