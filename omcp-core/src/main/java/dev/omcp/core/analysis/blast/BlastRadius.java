package dev.omcp.core.analysis.blast;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What is affected when the targets degrade.
 *
 * @param targets the target node ids the walk started from
 * @param unresolved the requested targets no topology node matched
 * @param nodes the affected resources, nearest first (targets at hop 0), at most the cap
 * @param byHost node ids grouped by the node or host they run on (only placed resources)
 * @param byOwner node ids grouped by ownership root (only resources that have one)
 * @param truncated whether more resources were reachable than the cap allowed
 * @param omitted how many reachable resources were left out because of the cap
 * @param maxHopsReached whether the walk stopped at the hop limit with more to explore
 * @param sources the topology sources merged
 * @param affectedServices the distinct names of the affected services and workloads beyond the
 *     targets, nearest first, over the whole walk: the cap trims {@code nodes}, never this list
 */
public record BlastRadius(
        List<String> targets, List<String> unresolved, List<AffectedNode> nodes, Map<String, List<String>> byHost,
        Map<String, List<String>> byOwner, boolean truncated, int omitted, boolean maxHopsReached, List<String> sources,
        List<String> affectedServices) {
    public BlastRadius {
        targets = List.copyOf(targets);
        unresolved = List.copyOf(unresolved);
        nodes = List.copyOf(nodes);
        byHost = Map.copyOf(byHost);
        byOwner = Map.copyOf(byOwner);
        sources = List.copyOf(sources);
        affectedServices = List.copyOf(affectedServices);
    }

    /**
     * The JSON form for {@code get_blast_radius}: {@code targets}, {@code unresolved},
     * {@code nodes[]} ({@code id, kind, name, namespace, hops, via, impact, host, ownerRoot, attention}),
     * {@code byHost} and {@code byOwner} (id to member ids, sorted), {@code truncated},
     * {@code omitted}, {@code maxHopsReached}, {@code sources}, {@code total}.
     */
    public JsonObject toJson() {
        JsonArrayBuilder n = Jsonp.provider().createArrayBuilder();
        for (AffectedNode a : nodes) {
            JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("id", a.id()).add("kind", a.kind()).add("name", a.name());
            if (!a.namespace().isEmpty()) {
                o.add("namespace", a.namespace()); // absent for cluster-wide resources, as in get_topology
            }
            o.add("hops", a.hops());
            a.via().ifPresent(v -> o.add("via", v));
            o.add("impact", a.impact());
            a.host().ifPresent(h -> o.add("host", h));
            a.ownerRoot().ifPresent(r -> o.add("ownerRoot", r));
            if (!a.attention().isEmpty()) {
                // only on a node in trouble: a healthy radius does not grow by a map per resource
                JsonObjectBuilder attention = Jsonp.provider().createObjectBuilder();
                new TreeMap<>(a.attention()).forEach(attention::add);
                o.add("attention", attention);
            }
            n.add(o);
        }
        return Jsonp.provider().createObjectBuilder().add("targets", Jsonp.provider().createArrayBuilder(targets))
                .add("unresolved", Jsonp.provider().createArrayBuilder(unresolved)).add("total", nodes.size() + omitted)
                .add("nodes", n).add("byHost", groups(byHost)).add("byOwner", groups(byOwner)).add("truncated", truncated)
                .add("omitted", omitted).add("maxHopsReached", maxHopsReached).add("sources", Jsonp.provider().createArrayBuilder(sources))
                .build();
    }

    private static JsonObjectBuilder groups(Map<String, List<String>> groups) {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder();
        groups.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> b.add(e.getKey(), Jsonp.provider().createArrayBuilder(e.getValue().stream().sorted().toList())));
        return b;
    }
}
