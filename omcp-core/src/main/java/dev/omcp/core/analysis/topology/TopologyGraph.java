package dev.omcp.core.analysis.topology;

import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The topologies of several sources merged into one immutable graph by canonical node id
 * ({@link TopologyNode#id()}). Immutable and thread-safe once built.
 *
 * <p>Merging: a node reported by several sources keeps the kind, name and namespace of the first
 * source (sources are taken in name order, so the result does not depend on which answered first)
 * and the union of the attributes (first source wins a conflicting key); it remembers every source
 * that reported it. Edges are de-duplicated on (from, to, relation). An edge naming a node no source
 * listed gets a placeholder node whose kind is read from the id ({@code pod/...} is a pod) and which
 * has no sources.
 */
public final class TopologyGraph {
    private static final Pattern KIND = Pattern.compile("[a-z][a-z0-9]{0,31}");

    /** A merged node and the sources that reported it (empty for a placeholder). */
    public record Node(TopologyNode node, List<String> sources) {
        public Node {
            Objects.requireNonNull(node, "node");
            sources = List.copyOf(sources);
        }

        public String id() {
            return node.id();
        }

        public boolean placeholder() {
            return sources.isEmpty();
        }
    }

    private final Map<String, Node> nodes;
    private final List<TopologyEdge> edges;
    private final Map<String, List<TopologyEdge>> outgoing;
    private final Map<String, List<TopologyEdge>> incoming;
    private final Map<String, List<String>> idsByName;
    private final List<String> sources;
    /** Per id, the next step of its placement and ownership chains, found once so a chain step costs no edge scan. */
    private final Map<String, String> runsOn;
    private final Map<String, String> whole;
    private final Map<String, String> owner;

    private TopologyGraph(Map<String, Node> nodes, List<TopologyEdge> edges, List<String> sources) {
        this.nodes = Collections.unmodifiableMap(nodes);
        this.edges = List.copyOf(edges);
        this.sources = List.copyOf(sources);
        Map<String, List<TopologyEdge>> out = new HashMap<>();
        Map<String, List<TopologyEdge>> in = new HashMap<>();
        Map<String, String> runsOn = new HashMap<>();
        Map<String, String> whole = new HashMap<>();
        Map<String, String> owner = new HashMap<>();
        for (TopologyEdge e : this.edges) {
            out.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e);
            in.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e);
            // of several, the smallest id: the chains do not depend on the order the sources listed the edges in
            switch (e.relation()) {
                case RUNS_ON -> runsOn.merge(e.from(), e.to(), TopologyGraph::smaller);
                case CONTAINS -> whole.merge(e.to(), e.from(), TopologyGraph::smaller);
                case OWNED_BY -> owner.merge(e.from(), e.to(), TopologyGraph::smaller);
                default -> { }
            }
        }
        this.outgoing = out;
        this.incoming = in;
        this.runsOn = runsOn;
        this.whole = whole;
        this.owner = owner;
        Map<String, List<String>> byName = new HashMap<>();
        for (Node n : nodes.values()) {
            byName.computeIfAbsent(n.node().name(), k -> new ArrayList<>()).add(n.id());
        }
        this.idsByName = byName;
    }

    private static String smaller(String a, String b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** One source's topology. */
    public static TopologyGraph of(String source, Topology topology) {
        return merge(Map.of(source, topology));
    }

    /** Merges the topologies of several sources, keyed by source name. */
    public static TopologyGraph merge(Map<String, Topology> bySource) {
        Map<String, Topology> ordered = new TreeMap<>(bySource);
        Map<String, TopologyNode> merged = new TreeMap<>();
        Map<String, Set<String>> reporters = new HashMap<>();
        Set<TopologyEdge> edges = new LinkedHashSet<>();
        for (Map.Entry<String, Topology> s : ordered.entrySet()) {
            for (TopologyNode n : s.getValue().nodes()) {
                merged.merge(n.id(), n, TopologyGraph::mergeNode);
                reporters.computeIfAbsent(n.id(), k -> new LinkedHashSet<>()).add(s.getKey());
            }
            edges.addAll(s.getValue().edges());
        }
        Map<String, Node> nodes = new LinkedHashMap<>();
        merged.forEach((id, n) -> nodes.put(id, new Node(n, List.copyOf(reporters.get(id)))));
        for (TopologyEdge e : edges) {
            nodes.computeIfAbsent(e.from(), id -> new Node(placeholder(id), List.of()));
            nodes.computeIfAbsent(e.to(), id -> new Node(placeholder(id), List.of()));
        }
        return new TopologyGraph(nodes, new ArrayList<>(edges), List.copyOf(ordered.keySet()));
    }

    private static TopologyNode mergeNode(TopologyNode first, TopologyNode later) {
        Map<String, String> attributes = new TreeMap<>(later.attributes());
        attributes.putAll(first.attributes());
        return new TopologyNode(first.id(), first.kind(), first.name(), first.namespace(), attributes);
    }

    private static TopologyNode placeholder(String id) {
        String[] parts = id.split("/", -1);
        String kind = parts.length > 1 && KIND.matcher(parts[0]).matches() ? parts[0] : "unknown";
        String name = parts[parts.length - 1];
        String namespace = parts.length == 3 ? parts[1] : "";
        return new TopologyNode(id, kind, name, namespace, Map.of());
    }

    /** The sources merged, in name order. */
    public List<String> sources() {
        return sources;
    }

    public Map<String, Node> nodes() {
        return nodes;
    }

    public List<TopologyEdge> edges() {
        return edges;
    }

    public Node node(String id) {
        return nodes.get(id);
    }

    /** Edges leaving {@code id} ("id relation x"). */
    public List<TopologyEdge> outgoing(String id) {
        return outgoing.getOrDefault(id, List.of());
    }

    /** Edges arriving at {@code id} ("x relation id"). */
    public List<TopologyEdge> incoming(String id) {
        return incoming.getOrDefault(id, List.of());
    }

    /** The kinds a service name means when several nodes share the name. */
    public static final List<String> SERVICE_KINDS = List.of("service", "deployment", "statefulset", "daemonset");

    /**
     * The node ids a service name or id refers to: the node with exactly that id; else the nodes
     * whose name equals it (for {@code namespace/name}: that name in that namespace) and whose kind
     * is service, deployment, statefulset or daemonset (a Kubernetes service and its deployment are
     * both "checkout"); else any node of that name. Sorted; empty when nothing matches.
     */
    public List<String> resolve(String nameOrId) {
        if (nodes.containsKey(nameOrId)) {
            return List.of(nameOrId);
        }
        List<String> candidates = new ArrayList<>(idsByName.getOrDefault(nameOrId, List.of()));
        int slash = nameOrId.lastIndexOf('/');
        if (candidates.isEmpty() && slash > 0) {
            String namespace = nameOrId.substring(0, slash);
            String name = nameOrId.substring(slash + 1);
            for (String id : idsByName.getOrDefault(name, List.of())) {
                if (nodes.get(id).node().namespace().equals(namespace)) {
                    candidates.add(id);
                }
            }
        }
        List<String> serviceLike = candidates.stream().filter(id -> SERVICE_KINDS.contains(nodes.get(id).node().kind()))
                .sorted().toList();
        return serviceLike.isEmpty() ? candidates.stream().sorted().toList() : serviceLike;
    }

    /**
     * The most steps {@link #placementRoot} and {@link #ownershipRoot} follow. Real chains are a few
     * steps (container, pod, replica set, deployment; pod, node, host); a source may report one of
     * any length, and both are asked for every listed node of a blast radius, so an unbounded chain
     * would cost its length times the nodes listed.
     */
    public static final int MAX_CHAIN = 32;

    /**
     * Where a resource runs: the top of its placement chain (container to pod by {@code CONTAINS},
     * then {@code RUNS_ON} to node and host), when that is a node or a host; the resource itself if
     * it is a node or host; else null, also when the chain is longer than {@value #MAX_CHAIN} steps
     * (its top is then unknown).
     */
    public String placementRoot(String id) {
        String current = id;
        Set<String> seen = new HashSet<>();
        while (seen.add(current)) {
            String next = runsOn.containsKey(current) ? runsOn.get(current) : whole.get(current);
            if (next == null) {
                break;
            }
            if (seen.size() > MAX_CHAIN) {
                return null; // a step beyond the cap: the top is unknown
            }
            current = next;
        }
        String kind = nodes.containsKey(current) ? nodes.get(current).node().kind() : "";
        return kind.equals("host") || kind.equals("node") ? current : null;
    }

    /** Kinds that are workloads even without an owner (they are their own ownership root). */
    private static final Set<String> WORKLOAD_KINDS =
            Set.of("deployment", "statefulset", "daemonset", "replicaset", "job", "cronjob", "pod");

    /**
     * The root of a resource's ownership chain ({@code OWNED_BY} followed to the end, a container
     * first going to its pod): for a pod of a deployment, the deployment. A workload without an owner
     * is its own root; anything else without an owner has none (null), nor has a resource whose
     * chain is longer than {@value #MAX_CHAIN} steps (its end is unknown). A chain that loops ends
     * where it comes back.
     */
    public String ownershipRoot(String id) {
        String current = id;
        Node n = nodes.get(id);
        if (n != null && n.node().kind().equals("container") && whole.containsKey(id)) {
            current = whole.get(id);
        }
        Set<String> seen = new HashSet<>();
        boolean moved = !current.equals(id);
        while (seen.add(current)) {
            String next = owner.get(current);
            if (next == null) {
                break;
            }
            if (seen.size() > MAX_CHAIN) {
                return null; // a step beyond the cap: the end is unknown
            }
            current = next;
            moved = true;
        }
        Node root = nodes.get(current);
        if (moved || (root != null && WORKLOAD_KINDS.contains(root.node().kind()))) {
            return current;
        }
        return null;
    }
}
