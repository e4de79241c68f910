package dev.omcp.ports.inspect;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The aggregated graph of {@code GET /api/inspect/flows} (spec 4.3): identities to tools to backends.
 *
 * @param nodes every principal, tool and source seen in the window
 * @param edges principal to tool, and tool to source, with counts
 * @param observations how many observations the graph was built from
 * @param window the window aggregated
 */
public record Flows(List<Node> nodes, List<Edge> edges, long observations, Duration window) {
    public Flows {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        Objects.requireNonNull(window, "window");
    }

    /**
     * One node.
     *
     * @param id unique in the graph: {@code principal:<id>}, {@code tool:<name>}, {@code source:<name>}
     * @param kind {@code principal}, {@code tool} or {@code source}
     * @param label the principal id, tool name or source name; {@code source:*} is the node of calls that
     *     named no source (they go to every source the caller may use)
     * @param calls calls through this node
     */
    public record Node(String id, String kind, String label, long calls) {}

    /**
     * One edge with what happened on it.
     *
     * @param errors calls with outcome {@code error}
     * @param wouldBlock calls with decision {@code would-block}
     * @param blocked calls with decision {@code blocked}
     */
    public record Edge(String from, String to, long calls, long errors, long wouldBlock, long blocked) {}
}
