package dev.omcp.connectors.builtin.kubernetes;

import java.util.List;
import java.util.Map;

/**
 * The part of a Kubernetes object the topology needs.
 *
 * @param kind lower-case singular kind, for example {@code replicaset}
 * @param namespace the namespace, or empty string for cluster-wide objects
 * @param name the name
 * @param labels the object's labels
 * @param owners the kinds and names of its owners ({@code replicaset/api-7d9f})
 * @param nodeName the node a pod runs on, or empty string
 * @param selector a service's pod selector; empty when it selects nothing
 * @param containers a pod's container names
 * @param attributes facts shown with the node (phase, ready, type)
 * @param resourceVersion the object's resource version
 */
record Resource(String kind, String namespace, String name, Map<String, String> labels, List<String> owners, String nodeName,
        Map<String, String> selector, List<String> containers, Map<String, String> attributes, String resourceVersion) {

    String key() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
