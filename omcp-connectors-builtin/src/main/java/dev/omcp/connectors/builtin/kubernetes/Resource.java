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

    /** Rough heap cost of one string: header, array header, a map entry or list slot around it. */
    private static final long STRING_OVERHEAD = 48;
    /** Rough heap cost of the record with its (immutable) maps and lists. */
    private static final long RECORD_OVERHEAD = 256;

    String key() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    /**
     * A rough upper estimate of the heap bytes this resource holds (two bytes a character, as if
     * no string were compact), for the memory bound of {@link WatchLimits}.
     */
    long footprint() {
        long bytes = RECORD_OVERHEAD + size(namespace) + size(name) + size(nodeName) + size(resourceVersion);
        for (Map<String, String> m : List.of(labels, selector, attributes)) {
            for (Map.Entry<String, String> e : m.entrySet()) {
                bytes += size(e.getKey()) + size(e.getValue());
            }
        }
        for (List<String> l : List.of(owners, containers)) {
            for (String s : l) {
                bytes += size(s);
            }
        }
        return bytes;
    }

    private static long size(String s) {
        return STRING_OVERHEAD + 2L * s.length();
    }
}
