package dev.omcp.core.analysis.blast;

import dev.omcp.core.analysis.topology.ResourceTrouble;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One resource inside the blast radius.
 *
 * @param id canonical id
 * @param kind its kind
 * @param name its name
 * @param namespace its namespace, empty for cluster-wide resources
 * @param hops hop distance from the nearest target (0 for a target)
 * @param via the resource it was reached from (empty for a target)
 * @param impact how it is affected, for example {@code "calls service/prod/checkout"},
 *     {@code "runs on node/worker-3"}, {@code "owns pod/prod/api-1"}, or {@code "target"}
 * @param host the node or host it runs on (its placement root), when known
 * @param ownerRoot the root of its ownership chain (for a pod, its deployment), when it has one
 * @param attention the attributes that say it is in trouble already ({@link ResourceTrouble#of}: a pod's
 *     {@code waitingReason}, {@code restarts}...); empty for most
 */
public record AffectedNode(
        String id, String kind, String name, String namespace, int hops, Optional<String> via, String impact,
        Optional<String> host, Optional<String> ownerRoot, Map<String, String> attention) {
    public AffectedNode {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(via, "via");
        Objects.requireNonNull(impact, "impact");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(ownerRoot, "ownerRoot");
        attention = Map.copyOf(attention);
    }
}
