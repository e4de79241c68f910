package dev.omcp.core.analysis.topology;

import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.text.BackendText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The topologies of several sources merged into one immutable graph by canonical node id
 * ({@link TopologyNode#id()}). Immutable and thread-safe once built.
 *
 * <p>Merging: a node reported by several sources keeps the kind, name and namespace of the first
 * source (sources are taken in name order, so the result does not depend on which answered first),
 * except that a namespaced reading of the id wins over a namespace-less one (see below), and the
 * union of the attributes (first source wins a conflicting key); it remembers every source that
 * reported it. Edges are de-duplicated on (from, to, relation). An edge naming a node no source
 * listed gets a placeholder node whose kind, namespace and name are read from the id
 * ({@code pod/shop/web-0} is pod {@code web-0} of namespace {@code shop}) and which has no sources;
 * the id must read as one the rules below would accept from a listed node, or the edge is left out
 * and {@link #gaps()} says so for the source that drew it.
 *
 * <p>Only a node whose id is made of its own kind, namespace and name is merged
 * ({@link #canonical}): {@code kind/namespace/name} for a namespaced resource, whose namespace and
 * name hold no {@code /}; {@code kind/name} for one without a namespace, whose name may be a path
 * ({@code shop/payments} from a trace source that has no namespaces is the same id as the service
 * {@code payments} in namespace {@code shop}, and merges with it on purpose, keeping the name
 * {@code payments} and namespace {@code shop} that the other tools resolve); and
 * {@code container/namespace/pod/name} for a container. Anything else would let one id mean two
 * resources (pod {@code a/b} in namespace {@code x} and pod {@code b} in namespace {@code x/a} are
 * both {@code pod/x/a/b}), or let one source give another's resource its kind and name. Kubernetes
 * names cannot hold a slash, so only a broken or hostile source sends such a node: it is left out
 * with the edges that source drew to it, and {@link #gaps()} says so for that source.
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
    private final Map<String, List<String>> idsByLowerCase;
    private final List<String> sources;
    private final Map<String, List<String>> gaps;
    /** Per id, the next step of its placement and ownership chains, found once so a chain step costs no edge scan. */
    private final Map<String, String> runsOn;
    private final Map<String, String> whole;
    private final Map<String, String> owner;

    private TopologyGraph(Map<String, Node> nodes, List<TopologyEdge> edges, List<String> sources, Map<String, List<String>> gaps) {
        this.gaps = Collections.unmodifiableMap(new TreeMap<>(gaps));
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
        Map<String, List<String>> byLowerCase = new HashMap<>();
        nodes.keySet().forEach(id -> byLowerCase.computeIfAbsent(id.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(id));
        byLowerCase.values().removeIf(spellings -> spellings.size() < 2); // kept only where there are twins: a topology has few
        this.idsByLowerCase = byLowerCase;
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
        Map<String, List<TopologyEdge>> edgesBySource = new LinkedHashMap<>();
        Map<String, List<String>> gaps = new TreeMap<>();
        for (Map.Entry<String, Topology> s : ordered.entrySet()) {
            List<String> refused = new ArrayList<>();
            Set<String> accepted = new HashSet<>();
            for (TopologyNode n : s.getValue().nodes()) {
                if (!canonical(n)) {
                    refused.add(n.id());
                    continue;
                }
                accepted.add(n.id());
                merged.merge(n.id(), n, TopologyGraph::mergeNode);
                reporters.computeIfAbsent(n.id(), k -> new LinkedHashSet<>()).add(s.getKey());
            }
            Set<String> leftOut = new HashSet<>(refused);
            leftOut.removeAll(accepted);
            int edgesLeftOut = 0;
            List<TopologyEdge> kept = new ArrayList<>();
            for (TopologyEdge e : s.getValue().edges()) {
                if (leftOut.contains(e.from()) || leftOut.contains(e.to())) {
                    edgesLeftOut++;
                } else {
                    kept.add(e);
                }
            }
            edgesBySource.put(s.getKey(), kept);
            if (!refused.isEmpty()) {
                gaps.computeIfAbsent(s.getKey(), k -> new ArrayList<>()).add(refusedSentence(refused, edgesLeftOut));
            }
        }
        Map<String, Node> nodes = new LinkedHashMap<>();
        merged.forEach((id, n) -> nodes.put(id, new Node(n, List.copyOf(reporters.get(id)))));
        // an end no source listed becomes a placeholder read from its id, so the id must be one the
        // listed nodes could have: known only once every source is merged, as another may list it
        Set<TopologyEdge> edges = new LinkedHashSet<>();
        for (Map.Entry<String, List<TopologyEdge>> s : edgesBySource.entrySet()) {
            List<String> unreadable = new ArrayList<>();
            int edgesLeftOut = 0;
            for (TopologyEdge e : s.getValue()) {
                Optional<TopologyNode> from = listedOrPlaceholder(nodes, e.from());
                Optional<TopologyNode> to = listedOrPlaceholder(nodes, e.to());
                if (from.isPresent() && to.isPresent()) {
                    edges.add(e);
                    nodes.computeIfAbsent(e.from(), id -> new Node(from.get(), List.of()));
                    nodes.computeIfAbsent(e.to(), id -> new Node(to.get(), List.of()));
                } else {
                    edgesLeftOut++;
                    unreadable.add(from.isEmpty() ? e.from() : e.to());
                }
            }
            if (edgesLeftOut > 0) {
                gaps.computeIfAbsent(s.getKey(), k -> new ArrayList<>()).add(unreadableEndsSentence(edgesLeftOut, unreadable));
            }
        }
        gaps.replaceAll((source, sentences) -> List.copyOf(sentences));
        return new TopologyGraph(nodes, new ArrayList<>(edges), List.copyOf(ordered.keySet()), gaps);
    }

    /** The longest refused id quoted in a gap: it is a source's text. */
    private static final int MAX_QUOTED_ID = 128;

    /**
     * Whether {@code n}'s id is the one its kind, namespace and name make (see the class comment),
     * so that one id can never stand for two resources.
     */
    static boolean canonical(TopologyNode n) {
        String name = n.name();
        String namespace = n.namespace();
        String id = n.id();
        if (name.isEmpty() || namespace.indexOf('/') >= 0) {
            return false;
        }
        if (namespace.isEmpty()) {
            // a name may hold '/' only here: a trace or log source that has no namespaces spells a
            // service namespace/name in its name, and that is the resource a namespaced source lists
            // under the same id, so the two merge as one service on purpose
            return id.equals(n.kind() + "/" + name) && Arrays.stream(name.split("/", -1)).noneMatch(String::isEmpty);
        }
        if (name.indexOf('/') >= 0) {
            return false;
        }
        String prefix = n.kind() + "/" + namespace + "/";
        if (id.equals(prefix + name)) {
            return true;
        }
        // a container's id has its pod between namespace and name; no other kind has a path there,
        // or kind/ns/a/b would also be the id a source without namespaces gives ns/a/b
        return n.kind().equals("container") && id.startsWith(prefix) && id.endsWith("/" + name)
                && id.length() > prefix.length() + name.length() + 1
                && Arrays.stream(id.substring(prefix.length(), id.length() - name.length() - 1).split("/", -1)).noneMatch(String::isEmpty);
    }

    private static String refusedSentence(List<String> refused, int edgesLeftOut) {
        boolean one = refused.size() == 1;
        return refused.size() + (one ? " node" : " nodes") + " left out"
                + (edgesLeftOut == 0 ? "" : " (and " + edgesLeftOut + (edgesLeftOut == 1 ? " edge" : " edges") + " naming "
                        + (one ? "it" : "them") + ")")
                + ": " + (one ? "its id is" : "their ids are") + " not kind/namespace/name of " + (one ? "its" : "their")
                + " own kind, namespace and name, or " + (one ? "its" : "a") + " name or namespace holds '/', so "
                + (one ? "it" : "they") + " could be mistaken for another resource (first: " + quotedId(refused.get(0))
                + "); a connector bug to report";
    }

    private static String unreadableEndsSentence(int edgesLeftOut, List<String> ids) {
        boolean one = edgesLeftOut == 1;
        return edgesLeftOut + (one ? " edge" : " edges") + " left out: " + (one ? "it names" : "they name") + " a node no source"
                + " listed whose id is not kind/name, kind/namespace/name or container/namespace/pod/name, so it could be"
                + " mistaken for another resource (first: " + quotedId(ids.get(0)) + "); a connector bug to report";
    }

    /** A source's id as a gap quotes it: one line, and not all of a huge one. */
    private static String quotedId(String id) {
        return BackendText.quoted(id, MAX_QUOTED_ID);
    }

    /**
     * Per source (in name order), what the merge left out of its answer and why; only sources with
     * something left out. A tool shows these with the gaps the sources declared themselves.
     */
    public Map<String, List<String>> gaps() {
        return gaps;
    }

    private static TopologyNode mergeNode(TopologyNode first, TopologyNode later) {
        Map<String, String> attributes = new TreeMap<>(later.attributes());
        attributes.putAll(first.attributes());
        // one id read two ways (service shop/payments without a namespace, payments in namespace shop):
        // the namespaced reading wins whichever source sorts first, or "payments" would stop naming it
        TopologyNode named = first.namespace().isEmpty() && !later.namespace().isEmpty() ? later : first;
        return new TopologyNode(first.id(), first.kind(), named.name(), named.namespace(), attributes);
    }

    private static Optional<TopologyNode> listedOrPlaceholder(Map<String, Node> nodes, String id) {
        Node listed = nodes.get(id);
        return listed != null ? Optional.of(listed.node()) : placeholder(id);
    }

    /**
     * The node an id no source listed stands for, read from the id as {@link #canonical} would check
     * it: {@code kind/name}; {@code kind/namespace/name} (the namespaced reading, as a merge prefers
     * it); {@code container/namespace/pod/name}; a longer path of another kind is a name without a
     * namespace. Empty when that reading is not canonical (no kind, an empty part): such an id could
     * be read as another resource's.
     */
    static Optional<TopologyNode> placeholder(String id) {
        String[] parts = id.split("/", -1);
        if (parts.length < 2 || !KIND.matcher(parts[0]).matches()) {
            return Optional.empty();
        }
        String kind = parts[0];
        boolean namespaced = parts.length == 3 || (parts.length > 3 && kind.equals("container"));
        String namespace = namespaced ? parts[1] : "";
        String name = namespaced ? parts[parts.length - 1] : id.substring(kind.length() + 1);
        TopologyNode node = new TopologyNode(id, kind, name, namespace, Map.of());
        return canonical(node) ? Optional.of(node) : Optional.empty();
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

    /**
     * The other node ids equal to {@code id} but for case ({@code service/prod/API} for
     * {@code service/prod/api}), sorted; empty when there are none. Ids are case-sensitive, so such
     * nodes are not merged: a node's name is what the other tools ask backends for, and a trace
     * source that spells a service {@code API} finds nothing under {@code api}. A tool names the
     * twins instead, so a radius split across two spellings is not mistaken for the whole one.
     */
    public List<String> sameButCase(String id) {
        List<String> spellings = idsByLowerCase.getOrDefault(id.toLowerCase(Locale.ROOT), List.of());
        return spellings.stream().filter(other -> !other.equals(id)).sorted().toList();
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
