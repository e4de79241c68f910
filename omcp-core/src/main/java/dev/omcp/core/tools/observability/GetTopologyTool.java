package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.topology.ResourceTrouble;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code get_topology}: the resources the topology sources know and how they relate, merged across
 * sources by canonical id, optionally centred on one service or resource, filtered by kind and
 * capped.
 *
 * <p>Order of the listed nodes: with a focus, nearest first; without, by kind (services and
 * workloads before nodes, pods, replica sets, containers and namespaces), then id. Edges are those
 * between listed nodes; {@code IN_NAMESPACE} edges are left out because every node carries its
 * namespace.
 */
public final class GetTopologyTool extends ObservabilityTool {
    static final String NAME = "get_topology";
    static final int DEFAULT_LIMIT = 200;
    static final int MAX_LIMIT = 2000;
    static final int DEFAULT_DEPTH = 2;
    /** Edges listed per listed node at most, so a dense mesh cannot flood the answer. */
    static final int EDGES_PER_NODE = 4;
    private static final int MAX_ATTRIBUTES = 16;
    private static final int MAX_ATTRIBUTE_CHARS = 200;
    static final String NAMESPACE_PATTERN = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$";
    static final String KIND_PATTERN = "^[a-z][a-z0-9]{0,31}$";
    private static final List<String> KIND_ORDER = List.of("service", "deployment", "statefulset", "daemonset", "cronjob", "job",
            "host", "node", "pod", "replicaset", "container", "namespace");

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Get topology",
            "Shows how resources relate: services calling services, Kubernetes services selecting pods, pods owned by "
                    + "replica sets and deployments, pods running on nodes, containers in pods. Merged across every topology "
                    + "source (the kubernetes connector, trace-derived service calls) by canonical id such as "
                    + "service/shop/payments or node/worker-1. Narrow it with `namespace`, `kinds`, or `focus` (a service name "
                    + "or resource id) with `depth` relations around it; the answer is capped at `limit` nodes and says when it "
                    + "is truncated. Use it to learn names and dependencies; call get_blast_radius to see what a failing "
                    + "service or node takes down.",
            Schemas.object()
                    .property("namespace", Jsonp.object().add("type", "string").add("pattern", NAMESPACE_PATTERN)
                            .add("description", "Only resources of this Kubernetes namespace (and the nodes their pods run on).").build())
                    .property("kinds", Jsonp.object().add("type", "array")
                            .add("items", Jsonp.object().add("type", "string").add("pattern", KIND_PATTERN))
                            .add("minItems", 1).add("maxItems", 16).add("uniqueItems", true)
                            .add("description", "Only nodes of these kinds, for example [\"service\", \"deployment\"]. Kinds the connectors report (a cluster may have fewer): "
                                    + String.join(", ", KIND_ORDER) + ".").build())
                    .property("focus", Schemas.service("Centre on this service name (payments, shop/payments) or resource id "
                            + "(node/worker-1, pod/shop/payments-7c9d-x2x4z): only resources within `depth` relations of it are listed."))
                    .property("depth", Schemas.integerWithoutDefault("With `focus` only (refused without it): how many relations away "
                            + "from it to go; default " + DEFAULT_DEPTH + ".", 1, 6))
                    .property("limit", Schemas.integer("The most nodes to list; edges are listed between listed nodes only.", 1,
                            MAX_LIMIT, DEFAULT_LIMIT))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("nodes", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                            .add("properties", Jsonp.object()
                                    .add("id", Jsonp.object().add("type", "string"))
                                    .add("kind", Jsonp.object().add("type", "string"))
                                    .add("name", Jsonp.object().add("type", "string"))
                                    .add("namespace", Jsonp.object().add("type", "string"))
                                    .add("hops", OutputFields.typed("integer", "With focus: relations away from it."))
                                    .add("attributes", OutputFields.map("What the sources say of the resource (phase, ready, "
                                            + "replicas...), at most " + MAX_ATTRIBUTES + ". A pod in trouble also has waitingReason "
                                            + "(CrashLoopBackOff, ImagePullBackOff...), lastTerminationReason (OOMKilled, Error...), "
                                            + "restarts (above 0) or terminating; the note names such resources and what these "
                                            + "mean.", "string"))
                                    .add("sources", OutputFields.strings("The sources that know the node.")))))
                    .add("edges", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                            .add("properties", Jsonp.object()
                                    .add("from", Jsonp.object().add("type", "string"))
                                    .add("to", Jsonp.object().add("type", "string"))
                                    .add("relation", Jsonp.object().add("type", "string")))))
                    .add("totalNodes", Jsonp.object().add("type", Jsonp.array().add("integer").add("null"))
                            .add("description", "Nodes that matched before the cap; null when no topology could be read."))
                    .add("totalEdges", Jsonp.object().add("type", Jsonp.array().add("integer").add("null"))
                            .add("description", "Edges among the matching nodes (IN_NAMESPACE left out); null when no topology could be read."))
                    .add("byKind", OutputFields.map("Matching nodes per kind, before the cap.", "integer"))
                    .add("truncated", Jsonp.object().add("type", "boolean"))
                    .add("focus", OutputFields.object("With focus: what was asked and the node ids it resolved to.", Jsonp.object()
                            .add("requested", OutputFields.type("string"))
                            .add("resolved", OutputFields.strings("Node ids; empty when nothing has that id or name."))
                            .add("depth", OutputFields.type("integer"))))
                    .add("topologyGaps", TopologySnapshot.gapsSchema()),
                    List.of("nodes", "edges", "totalNodes", "truncated", "sources", "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;

    public GetTopologyTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        String namespace = args.optionalString("namespace").orElse("");
        Set<String> kinds = new HashSet<>(args.strings("kinds"));
        Optional<String> focus = args.optionalString("focus");
        if (focus.isEmpty() && args.raw().containsKey("depth")) {
            // refused like every argument that cannot apply: a caller who set it expected a neighbourhood
            throw new InvalidArgumentException("depth applies only with focus: name the service or resource id to centre on, "
                    + "or leave depth out to list the whole topology");
        }
        int depth = args.integer("depth", DEFAULT_DEPTH);
        int limit = args.integer("limit", DEFAULT_LIMIT);

        TopologySnapshot snapshot = TopologySnapshot.gather(toolkit, call.principal(), namespace);
        JsonObjectBuilder result = Jsonp.object();
        if (snapshot.graph().isEmpty()) {
            result.add("nodes", Jsonp.array()).add("edges", Jsonp.array()).add("totalNodes", JsonValue.NULL)
                    .add("totalEdges", JsonValue.NULL).add("byKind", Jsonp.object()).add("truncated", false);
            snapshot.gathered().writeTo(result);
            result.add("note", snapshot.noSource() ? TopologySnapshot.NO_SOURCE_NOTE
                    : "Every topology source failed, so no topology is known (" + snapshot.failureSummary() + "). Try again, or ask "
                            + "an operator to check the sources (list_sources shows their status).");
            return ToolResult.structured(result.build());
        }
        TopologyGraph graph = snapshot.graph().get();

        Map<String, Integer> hops = new LinkedHashMap<>();
        List<String> resolved = List.of();
        if (focus.isPresent()) {
            resolved = graph.resolve(focus.get());
            hops = neighbourhood(graph, resolved, depth);
        } else {
            for (String id : graph.nodes().keySet()) {
                hops.put(id, 0);
            }
        }
        List<String> matching = new ArrayList<>();
        for (String id : hops.keySet()) {
            TopologyNode n = graph.node(id).node();
            if ((kinds.isEmpty() || kinds.contains(n.kind())) && inNamespace(n, namespace)) {
                matching.add(id);
            }
        }
        Map<String, Integer> distance = hops;
        Comparator<String> order = focus.isPresent()
                ? Comparator.comparingInt((String id) -> distance.get(id)).thenComparingInt(id -> kindRank(graph, id))
                        .thenComparing(Comparator.naturalOrder())
                : Comparator.comparingInt((String id) -> kindRank(graph, id)).thenComparing(Comparator.naturalOrder());
        matching.sort(order);
        List<String> listed = matching.subList(0, Math.min(limit, matching.size()));
        Set<String> listedSet = new HashSet<>(listed);
        Set<String> matchingSet = new HashSet<>(matching);

        Map<String, Integer> byKind = new TreeMap<>();
        matching.forEach(id -> byKind.merge(graph.node(id).node().kind(), 1, Integer::sum));
        int totalEdges = 0;
        List<TopologyEdge> among = new ArrayList<>();
        for (TopologyEdge e : graph.edges()) {
            if (e.relation() == Relation.IN_NAMESPACE || !matchingSet.contains(e.from()) || !matchingSet.contains(e.to())) {
                continue;
            }
            totalEdges++;
            if (listedSet.contains(e.from()) && listedSet.contains(e.to())) {
                among.add(e);
            }
        }
        int edgesAmongListed = among.size();
        int maxEdges = Math.max(1, listed.size()) * EDGES_PER_NODE;
        boolean edgesCut = edgesAmongListed > maxEdges;
        List<TopologyEdge> edges = new ArrayList<>(edgesCut ? keptEdges(among, listed, maxEdges) : among);
        edges.sort(Comparator.comparing(TopologyEdge::from).thenComparing(TopologyEdge::to).thenComparing(e -> e.relation().name()));

        JsonArrayBuilder nodes = Jsonp.array();
        for (String id : listed) {
            nodes.add(node(graph.node(id), focus.isPresent() ? Optional.of(distance.get(id)) : Optional.empty()));
        }
        JsonArrayBuilder edgeArray = Jsonp.array();
        edges.forEach(e -> edgeArray.add(Jsonp.object().add("from", e.from()).add("to", e.to()).add("relation", e.relation().name())));
        JsonObjectBuilder kindCounts = Jsonp.object();
        byKind.forEach(kindCounts::add);
        boolean truncated = listed.size() < matching.size() || edgesCut;
        result.add("nodes", nodes).add("edges", edgeArray).add("totalNodes", matching.size()).add("totalEdges", totalEdges)
                .add("byKind", kindCounts).add("truncated", truncated);
        if (focus.isPresent()) {
            JsonArrayBuilder ids = Jsonp.array();
            resolved.forEach(ids::add);
            result.add("focus", Jsonp.object().add("requested", focus.get()).add("resolved", ids).add("depth", depth));
        }
        snapshot.gathered().writeTo(result);
        snapshot.writeGaps(result);
        // a focus may be an id or a name: suggest among names first (what agents type), then ids
        String didYouMean = focus.isPresent() && resolved.isEmpty() ? suggestion(graph, focus.get()) : "";
        String whatExists = matching.isEmpty() && (focus.isEmpty() || !resolved.isEmpty()) ? whatExists(graph, kinds) : "";
        String edgesNote = edgesCut ? "Edges cut to " + edges.size() + " of the " + edgesAmongListed + " between the listed nodes (at most "
                + EDGES_PER_NODE + " per listed node): narrow with focus, namespace or kinds to see how they connect." : "";
        boolean namespaceHoldsNothing = !namespace.isEmpty()
                && matching.stream().noneMatch(id -> ofNamespace(graph.node(id).node(), namespace));
        Optional<String> note = note(focus, resolved, matching, listed.size() < matching.size(), limit, new NamespaceAsked(namespace,
                namespaceHoldsNothing), kinds, didYouMean + whatExists, edgesNote);
        Optional<String> twins = CaseTwins.note(graph, listed, NAME, "focus");
        if (twins.isPresent()) {
            note = Optional.of(note.map(n -> n + " ").orElse("") + twins.get());
        }
        Map<String, Map<String, String>> trouble = new LinkedHashMap<>();
        listed.forEach(id -> trouble.put(id, ResourceTrouble.of(graph.node(id).node())));
        Optional<String> troubleNote = ResourceTrouble.note(trouble, "listed resource");
        if (troubleNote.isPresent()) {
            note = Optional.of(note.map(n -> n + " ").orElse("") + troubleNote.get());
        }
        if (snapshot.hasGaps()) {
            note = Optional.of(note.map(n -> n + " ").orElse("") + TopologySnapshot.GAPS_NOTE);
        }
        note.ifPresent(n -> result.add("note", n));
        return ToolResult.structured(result.build());
    }

    /**
     * The {@code max} edges kept when there are more: those of the first listed nodes (the focus and
     * its nearest, or services before pods), then by id. Chosen by the listing, not by the order the
     * sources gave their edges in: the kubernetes connector lists them in hash order, which changes
     * between processes, and the same cluster would show other edges from one call to the next.
     */
    private static List<TopologyEdge> keptEdges(List<TopologyEdge> among, List<String> listed, int max) {
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < listed.size(); i++) {
            position.put(listed.get(i), i);
        }
        Comparator<TopologyEdge> nearestFirst = Comparator
                .comparingInt((TopologyEdge e) -> Math.min(position.get(e.from()), position.get(e.to())))
                .thenComparingInt(e -> Math.max(position.get(e.from()), position.get(e.to())))
                .thenComparing(TopologyEdge::from).thenComparing(TopologyEdge::to).thenComparing(e -> e.relation().name());
        return among.stream().sorted(nearestFirst).limit(max).toList();
    }

    /** Whether {@code n} belongs to {@code namespace} itself, not merely listed under it as a cluster-wide resource. */
    private static boolean ofNamespace(TopologyNode n, String namespace) {
        return (!n.namespace().isEmpty() || n.kind().equals("namespace") || n.name().indexOf('/') >= 0) && inNamespace(n, namespace);
    }

    /**
     * Whether a node may be listed under the {@code namespace} asked for: one of that namespace, or a
     * cluster-wide one (a node, a host; of the namespaces, that one). Every source is asked for the
     * namespace only, but a plugin may answer its whole topology regardless, and "only resources of
     * this namespace" must still hold. A service a source without namespaces spells {@code ns/name}
     * is of namespace {@code ns}.
     */
    private static boolean inNamespace(TopologyNode n, String namespace) {
        if (namespace.isEmpty()) {
            return true;
        }
        if (!n.namespace().isEmpty()) {
            return n.namespace().equals(namespace);
        }
        if (n.kind().equals("namespace")) {
            return n.name().equals(namespace);
        }
        int slash = n.name().indexOf('/');
        return slash < 0 || n.name().substring(0, slash).equals(namespace);
    }

    private static String suggestion(TopologyGraph graph, String focus) {
        List<String> names = TopologyNameSuggestions.forName(graph, focus);
        return TopologyNameSuggestions.didYouMean(names.isEmpty() ? TopologyNameSuggestions.forId(graph, focus) : names);
    }

    /**
     * For an empty answer under a kinds filter: the kinds the topology has, with the nearest to what
     * was asked, so a typo ({@code services}) does not read as an empty cluster. (Namespaces cannot be
     * listed the same way: the sources were asked for the one namespace only.)
     */
    private static String whatExists(TopologyGraph graph, Set<String> kinds) {
        if (graph.nodes().isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        if (!kinds.isEmpty()) {
            java.util.TreeSet<String> seen = new java.util.TreeSet<>();
            graph.nodes().values().forEach(n -> seen.add(n.node().kind()));
            List<String> unknown = kinds.stream().filter(k -> !seen.contains(k)).sorted().toList();
            if (!unknown.isEmpty()) {
                out.append(" Kinds in the topology: ").append(String.join(", ", seen)).append('.');
                Map<String, List<String>> meant = new LinkedHashMap<>();
                unknown.forEach(k -> meant.put(k, NearestName.of(k, seen)));
                out.append(NearestName.didYouMeanEach(meant));
            }
        }
        return out.toString();
    }

    /** The {@code namespace} argument ("" when absent), and whether no listed node is of it (cluster-wide ones aside). */
    private record NamespaceAsked(String name, boolean holdsNothing) {
        /** Where the namespaces are: the sources were asked for this one only, so the answer holds no other to offer. */
        String hint() {
            return holdsNothing ? " get_topology with {\"kinds\": [\"namespace\"]} and no namespace lists the namespaces the topology "
                    + "knows." : "";
        }
    }

    private static Optional<String> note(Optional<String> focus, List<String> resolved, List<String> matching, boolean nodesCut,
            int limit, NamespaceAsked namespace, Set<String> kinds, String didYouMean, String edgesNote) {
        List<String> parts = new ArrayList<>();
        if (focus.isPresent() && resolved.isEmpty()) {
            parts.add("'" + focus.get() + "' is not in the topology: no node has that id or name. Call get_topology without focus, "
                    + "or list_services, for the names the sources use." + didYouMean);
        } else if (matching.isEmpty()) {
            parts.add("No node matches" + (namespace.name().isEmpty() ? "" : " in namespace '" + namespace.name() + "'")
                    + (kinds.isEmpty() ? "" : " with kinds " + kinds.stream().sorted().toList())
                    + "." + didYouMean + namespace.hint());
        } else if (namespace.holdsNothing()) {
            parts.add("No resource of namespace '" + namespace.name() + "' is in the topology: only cluster-wide ones match."
                    + namespace.hint());
        }
        if (nodesCut) {
            parts.add("Truncated to " + limit + " of " + matching.size() + " nodes (edges only between listed nodes): narrow with "
                    + "focus, namespace or kinds, or raise limit.");
        }
        // all the nodes may be listed and the edges still cut: "Truncated to 200 of 150 nodes" said nothing true
        if (!edgesNote.isEmpty()) {
            parts.add(edgesNote);
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", parts));
    }

    /** Undirected breadth-first distances from the focus, up to {@code depth}; namespaces do not connect things. */
    private static Map<String, Integer> neighbourhood(TopologyGraph graph, List<String> start, int depth) {
        Map<String, Integer> hops = new LinkedHashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        for (String id : start) {
            hops.put(id, 0);
            queue.add(id);
        }
        while (!queue.isEmpty()) {
            String id = queue.poll();
            int next = hops.get(id) + 1;
            if (next > depth) {
                continue;
            }
            List<String> neighbours = new ArrayList<>();
            graph.outgoing(id).stream().filter(e -> e.relation() != Relation.IN_NAMESPACE).forEach(e -> neighbours.add(e.to()));
            graph.incoming(id).stream().filter(e -> e.relation() != Relation.IN_NAMESPACE).forEach(e -> neighbours.add(e.from()));
            neighbours.sort(null);
            for (String n : neighbours) {
                if (!hops.containsKey(n)) {
                    hops.put(n, next);
                    queue.add(n);
                }
            }
        }
        return hops;
    }

    private static int kindRank(TopologyGraph graph, String id) {
        int rank = KIND_ORDER.indexOf(graph.node(id).node().kind());
        return rank < 0 ? KIND_ORDER.size() : rank;
    }

    private static JsonObjectBuilder node(TopologyGraph.Node merged, Optional<Integer> hops) {
        TopologyNode n = merged.node();
        JsonObjectBuilder o = Jsonp.object().add("id", n.id()).add("kind", n.kind()).add("name", n.name());
        if (!n.namespace().isEmpty()) {
            o.add("namespace", n.namespace());
        }
        hops.ifPresent(h -> o.add("hops", h));
        if (!n.attributes().isEmpty()) {
            JsonObjectBuilder attributes = Jsonp.object();
            new TreeMap<>(n.attributes()).entrySet().stream().limit(MAX_ATTRIBUTES).forEach(e -> attributes.add(e.getKey(),
                    e.getValue().length() > MAX_ATTRIBUTE_CHARS ? e.getValue().substring(0, MAX_ATTRIBUTE_CHARS) + "…" : e.getValue()));
            o.add("attributes", attributes);
        }
        JsonArrayBuilder sources = Jsonp.array();
        merged.sources().forEach(sources::add);
        return o.add("sources", sources);
    }
}
