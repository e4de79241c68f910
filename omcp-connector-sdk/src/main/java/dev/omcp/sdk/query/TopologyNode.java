package dev.omcp.sdk.query;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One resource of the topology.
 *
 * @param id stable id, {@code <kind>/<namespace>/<name>} or {@code <kind>/<name>} for cluster-wide
 *     resources; the gateway merges nodes of several sources by this canonical id
 * @param kind lower-case singular kind: {@code pod}, {@code node}, {@code namespace},
 *     {@code deployment}, {@code replicaset}, {@code statefulset}, {@code daemonset}, {@code service},
 *     {@code container}, {@code host}
 * @param name the resource's name
 * @param namespace its namespace, or empty string for cluster-wide resources
 * @param attributes facts about it, for example {@code {phase="Running", ready="true"}}
 */
public record TopologyNode(String id, String kind, String name, String namespace, Map<String, String> attributes) {
    private static final Pattern KIND = Pattern.compile("[a-z][a-z0-9]{0,31}");

    public TopologyNode {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(namespace, "namespace");
        attributes = Map.copyOf(attributes);
        if (!KIND.matcher(kind).matches()) {
            throw new IllegalArgumentException("topology kind '" + kind + "' must be lower-case singular, for example pod");
        }
    }

    /** The canonical id of a resource. */
    public static String idOf(String kind, String namespace, String name) {
        return namespace.isEmpty() ? kind + "/" + name : kind + "/" + namespace + "/" + name;
    }
}
