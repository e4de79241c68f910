package dev.omcp.sdk.query;

import java.util.Objects;

/**
 * A directed relation between two topology nodes, read "{@code from} relation {@code to}", for
 * example {@code pod/prod/api-1 RUNS_ON node/worker-3}.
 *
 * @param from id of the source node
 * @param to id of the target node
 * @param relation how they relate
 */
public record TopologyEdge(String from, String to, Relation relation) {
    public TopologyEdge {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(relation, "relation");
    }
}
