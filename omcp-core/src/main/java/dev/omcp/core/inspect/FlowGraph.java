package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Flows;
import dev.omcp.ports.inspect.Observation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the graph of {@code GET /api/inspect/flows} (spec 4.3) from observations: a node per principal,
 * tool and source, an edge from each principal to the tools it called and from each tool to the
 * sources those calls named, with how many calls, errors, would-blocks and blocks went along it. A call
 * that named no source goes to the node {@code source:*}: the tool used every source the caller may use.
 *
 * <p>Bounded for a browser: beyond {@value #MAX_NODES} nodes the least called are folded into one node
 * per kind, {@code principal:(other)}, {@code tool:(other)}, {@code source:(other)}, labelled with how
 * many they stand for. Pure and not thread-safe: feed it ({@link #add}) and {@link #build} it once.
 */
final class FlowGraph {
    /** The most nodes a graph holds, the fold nodes included. */
    static final int MAX_NODES = 500;
    static final String OTHER = "(other)";
    private static final Comparator<NodeCount> BY_CALLS = Comparator.comparingLong(NodeCount::calls).reversed()
            .thenComparing(NodeCount::id);

    private final Map<String, NodeCount> nodes = new HashMap<>();
    private final Map<EdgeKey, long[]> edges = new HashMap<>();
    private long observations;

    /** Counts one call. */
    void add(Observation observation) {
        observations++;
        String principal = node("principal", observation.principal());
        String tool = node("tool", observation.tool());
        String sourceName = observation.resources().get("source");
        String source = node("source", sourceName == null ? "*" : sourceName);
        count(principal, tool, observation);
        count(tool, source, observation);
    }

    /** The graph of every call added, over {@code window}. */
    Flows build(Duration window) {
        List<NodeCount> sorted = new ArrayList<>(nodes.values());
        sorted.sort(BY_CALLS);
        Map<String, String> foldedInto = fold(sorted);
        Map<String, Flows.Node> kept = new LinkedHashMap<>();
        Map<String, long[]> others = new LinkedHashMap<>();
        for (NodeCount node : sorted) {
            String into = foldedInto.get(node.id());
            if (into == null) {
                kept.put(node.id(), new Flows.Node(node.id(), node.kind(), node.label(), node.calls()));
            } else {
                long[] other = others.computeIfAbsent(into, id -> new long[2]);
                other[0] += node.calls();
                other[1]++;
            }
        }
        List<Flows.Node> result = new ArrayList<>(kept.values());
        others.forEach((id, other) -> result.add(new Flows.Node(id, id.substring(0, id.indexOf(':')),
                "(other: " + other[1] + ")", other[0])));
        result.sort(Comparator.comparingLong(Flows.Node::calls).reversed().thenComparing(Flows.Node::id));
        return new Flows(result, edges(foldedInto), observations, window);
    }

    /**
     * Which nodes fold into which {@code <kind>:(other)}: none when the graph fits; otherwise all but the
     * most called, as many as leave room for one fold node per kind that has folded nodes. A node that is
     * itself named {@code (other)} is always folded, so no id appears twice.
     */
    private static Map<String, String> fold(List<NodeCount> sorted) {
        Map<String, String> foldedInto = new HashMap<>();
        if (sorted.size() <= MAX_NODES) {
            return foldedInto;
        }
        for (int keep = MAX_NODES - 1; keep >= 0; keep--) {
            foldedInto.clear();
            int kept = 0;
            Set<String> foldKinds = new HashSet<>();
            for (NodeCount node : sorted) {
                if (kept < keep && !node.label().equals(OTHER)) {
                    kept++;
                } else {
                    foldedInto.put(node.id(), node.kind() + ":" + OTHER);
                    foldKinds.add(node.kind());
                }
            }
            if (kept + foldKinds.size() <= MAX_NODES) {
                return foldedInto;
            }
        }
        throw new IllegalStateException("the fold nodes alone exceed " + MAX_NODES + " nodes");
    }

    private List<Flows.Edge> edges(Map<String, String> foldedInto) {
        Map<EdgeKey, long[]> merged = new HashMap<>();
        edges.forEach((key, counts) -> {
            EdgeKey target = new EdgeKey(foldedInto.getOrDefault(key.from(), key.from()), foldedInto.getOrDefault(key.to(), key.to()));
            long[] sum = merged.computeIfAbsent(target, k -> new long[4]);
            for (int i = 0; i < counts.length; i++) {
                sum[i] += counts[i];
            }
        });
        List<Flows.Edge> result = new ArrayList<>();
        merged.forEach((key, c) -> result.add(new Flows.Edge(key.from(), key.to(), c[0], c[1], c[2], c[3])));
        result.sort(Comparator.comparingLong(Flows.Edge::calls).reversed().thenComparing(Flows.Edge::from)
                .thenComparing(Flows.Edge::to));
        return result;
    }

    private String node(String kind, String label) {
        String id = kind + ":" + label;
        nodes.computeIfAbsent(id, k -> new NodeCount(id, kind, label)).calls++;
        return id;
    }

    /** calls, errors, would-block, blocked. */
    private void count(String from, String to, Observation observation) {
        long[] counts = edges.computeIfAbsent(new EdgeKey(from, to), k -> new long[4]);
        counts[0]++;
        counts[1] += observation.outcome() == Observation.Outcome.ERROR ? 1 : 0;
        counts[2] += observation.decision() == Observation.Decision.WOULD_BLOCK ? 1 : 0;
        counts[3] += observation.decision() == Observation.Decision.BLOCKED ? 1 : 0;
    }

    private record EdgeKey(String from, String to) {}

    /** A node while it is counted. */
    private static final class NodeCount {
        private final String id;
        private final String kind;
        private final String label;
        private long calls;

        NodeCount(String id, String kind, String label) {
            this.id = id;
            this.kind = kind;
            this.label = label;
        }

        String id() {
            return id;
        }

        String kind() {
            return kind;
        }

        String label() {
            return label;
        }

        long calls() {
            return calls;
        }
    }
}
