package dev.omcp.core.analysis.blast;

import dev.omcp.core.analysis.topology.ResourceTrouble;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Walks a merged topology from one or more targets to everything their degradation affects.
 * Stateless and thread-safe.
 *
 * <p>Impact flows along two kinds of move (docs/analysis.md draws them):
 * <ul>
 *   <li><b>Up</b>, from anything affected: to its <em>callers</em> ({@code X CALLS it}), its
 *       <em>dependents</em> ({@code X DEPENDS_ON it}, which includes a Kubernetes service selecting
 *       an affected pod), its <em>owner</em> ({@code it OWNED_BY X}: pod to replica set to
 *       deployment, up to the root) and its <em>whole</em> ({@code X CONTAINS it}: container to
 *       pod).</li>
 *   <li><b>Down</b>, only from a target and from what was reached going down: to what
 *       <em>runs on</em> it ({@code X RUNS_ON it}: host to node to pod), its <em>parts</em>
 *       ({@code it CONTAINS X}: pod to containers) and what it <em>owns</em>
 *       ({@code X OWNED_BY it}: deployment to its pods). A failed node takes its pods down; a failed
 *       pod does not take its sibling pods down, so once a move went up, no move goes down again.</li>
 * </ul>
 * {@code IN_NAMESPACE} carries no impact. The walk is breadth-first, so the listed nodes are the
 * nearest ones and {@code hops} is the length of the shortest path the degradation travels from a
 * target under these rules (what a resource reached going up affects going down counts from the
 * nearest way it was reached going down). Every affected node is
 * grouped by where it runs (its placement root: container to pod to node to host) and by its
 * ownership root. Beyond {@link BlastRadiusOptions#maxNodes()} nodes the walk still counts what is
 * reachable, so the result says how many were left out.
 */
public final class BlastRadiusWalker {

    /** The kinds whose names an agent knows as services: what {@code affectedServices} lists. */
    private static final Set<String> SERVICE_KINDS = Set.of("service", "deployment", "statefulset", "daemonset");

    private record Move(String to, String impact, boolean down) {}

    private record Visit(String id, int hops, boolean down) {}

    /**
     * The blast radius of {@code targets} (node ids or service names, resolved by
     * {@link TopologyGraph#resolve}).
     */
    public BlastRadius walk(TopologyGraph graph, List<String> targets, BlastRadiusOptions options) {
        List<String> unresolved = new ArrayList<>();
        Set<String> start = new LinkedHashSet<>();
        for (String t : targets) {
            List<String> ids = graph.resolve(t);
            if (ids.isEmpty()) {
                unresolved.add(t);
            }
            start.addAll(ids);
        }
        Walk walk = traverse(graph, start, options.maxHops());
        List<String> order = walk.order();
        Map<String, Integer> hops = walk.hops();
        int cap = Math.min(options.maxNodes(), order.size());
        List<AffectedNode> nodes = new ArrayList<>(cap);
        Map<String, List<String>> byHost = new TreeMap<>();
        Map<String, List<String>> byOwner = new TreeMap<>();
        for (String id : order.subList(0, cap)) {
            TopologyNode n = graph.node(id).node();
            Optional<String> host = Optional.ofNullable(graph.placementRoot(id));
            Optional<String> owner = Optional.ofNullable(graph.ownershipRoot(id));
            host.ifPresent(h -> byHost.computeIfAbsent(h, k -> new ArrayList<>()).add(id));
            owner.ifPresent(o -> byOwner.computeIfAbsent(o, k -> new ArrayList<>()).add(id));
            nodes.add(new AffectedNode(id, n.kind(), n.name(), n.namespace(), hops.get(id), Optional.ofNullable(walk.via().get(id)),
                    walk.impact().get(id), host, owner, ResourceTrouble.of(n)));
        }
        return new BlastRadius(List.copyOf(start), unresolved, nodes, byHost, byOwner, order.size() > cap,
                order.size() - cap, walk.maxHopsReached(), graph.sources(), affectedServices(graph, order, hops));
    }

    /**
     * The ids of everything the degradation of {@code targets} reaches within {@code maxHops},
     * targets included, nearest first: the whole walk, with no cap on how many (a caller that asks
     * "is X affected?" must not miss X because nearer resources filled a listing cap). Targets no
     * node matches are left out.
     */
    public List<String> reached(TopologyGraph graph, List<String> targets, int maxHops) {
        Set<String> start = new LinkedHashSet<>();
        targets.forEach(t -> start.addAll(graph.resolve(t)));
        return List.copyOf(traverse(graph, start, maxHops).order());
    }

    /** What a walk found: every reached id in visiting order, with its distance, predecessor and impact. */
    private record Walk(List<String> order, Map<String, Integer> hops, Map<String, String> via, Map<String, String> impact,
            boolean maxHopsReached) {}

    /**
     * Breadth-first over (resource, may it still spread down): a resource reached going up spreads
     * only up, so when it is later reached going down its way down starts from that longer path, not
     * from the shorter way up, or what lies beneath it would be listed nearer than it is. Every visit
     * is one hop beyond the one it came from, so a FIFO queue visits nearest first.
     */
    private static Walk traverse(TopologyGraph graph, Set<String> start, int maxHops) {
        Map<String, Integer> hops = new HashMap<>();
        Map<String, Integer> downHops = new HashMap<>();
        Map<String, String> via = new HashMap<>();
        Map<String, String> impact = new HashMap<>();
        List<String> order = new ArrayList<>();
        ArrayDeque<Visit> queue = new ArrayDeque<>();
        for (String id : start) {
            hops.put(id, 0);
            downHops.put(id, 0);
            impact.put(id, "target");
            order.add(id);
            queue.add(new Visit(id, 0, true));
        }
        boolean maxHopsReached = false;
        while (!queue.isEmpty()) {
            Visit v = queue.poll();
            if (!v.down() && downHops.getOrDefault(v.id(), Integer.MAX_VALUE) <= v.hops()) {
                continue; // reached going down as near: that visit makes every move this one would
            }
            List<Move> moves = moves(graph, v.id(), v.down());
            if (v.hops() >= maxHops) {
                // a resource not yet reached going down may have more beneath it
                maxHopsReached |= moves.stream().anyMatch(m -> !hops.containsKey(m.to()) || (m.down() && !downHops.containsKey(m.to())));
                continue;
            }
            int next = v.hops() + 1;
            for (Move m : moves) {
                if (!hops.containsKey(m.to())) {
                    hops.put(m.to(), next);
                    via.put(m.to(), v.id());
                    impact.put(m.to(), m.impact());
                    order.add(m.to());
                } else if (!m.down() || downHops.containsKey(m.to())) {
                    continue; // reached before, as near, in a way that spreads as far
                }
                if (m.down()) {
                    downHops.put(m.to(), next);
                }
                queue.add(new Visit(m.to(), next, m.down()));
            }
        }

        return new Walk(order, hops, via, impact, maxHopsReached);
    }

    /**
     * The distinct names of the service-like resources the walk reached beyond the targets, nearest
     * first, then by name. Taken over the whole walk, not the capped node list: an agent that asks
     * for three nodes still learns every service in the radius.
     */
    private static List<String> affectedServices(TopologyGraph graph, List<String> order, Map<String, Integer> hops) {
        Map<String, Integer> nearest = new HashMap<>();
        Set<String> targetNames = new HashSet<>();
        for (String id : order) {
            TopologyNode n = graph.node(id).node();
            int distance = hops.get(id);
            if (distance == 0) {
                targetNames.add(n.name());
            } else if (SERVICE_KINDS.contains(n.kind())) {
                nearest.merge(n.name(), distance, Math::min);
            }
        }
        nearest.keySet().removeAll(targetNames);
        List<String> names = new ArrayList<>(nearest.keySet());
        names.sort(Comparator.comparingInt((String name) -> nearest.get(name)).thenComparing(Comparator.naturalOrder()));
        return names;
    }

    /**
     * The moves out of {@code id}, sorted by target id, a move down first, then by impact, so the walk
     * is deterministic: two edges between one pair (X CALLS it and X DEPENDS_ON it) name the same
     * impact whatever order the source listed them in.
     */
    private static List<Move> moves(TopologyGraph graph, String id, boolean down) {
        List<Move> moves = new ArrayList<>();
        for (TopologyEdge e : graph.incoming(id)) {
            switch (e.relation()) {
                case CALLS -> moves.add(new Move(e.from(), "calls " + id, false));
                case DEPENDS_ON -> moves.add(new Move(e.from(), "depends on " + id, false));
                case CONTAINS -> moves.add(new Move(e.from(), "contains " + id, false));
                case RUNS_ON -> {
                    if (down) {
                        moves.add(new Move(e.from(), "runs on " + id, true));
                    }
                }
                case OWNED_BY -> {
                    if (down) {
                        moves.add(new Move(e.from(), "owned by " + id, true));
                    }
                }
                case IN_NAMESPACE -> { }
            }
        }
        for (TopologyEdge e : graph.outgoing(id)) {
            if (e.relation() == Relation.OWNED_BY) {
                moves.add(new Move(e.to(), "owns " + id, false));
            } else if (e.relation() == Relation.CONTAINS && down) {
                moves.add(new Move(e.to(), "part of " + id, true));
            }
        }
        moves.sort(Comparator.comparing(Move::to).thenComparing(m -> !m.down()).thenComparing(Move::impact));
        return moves;
    }
}
