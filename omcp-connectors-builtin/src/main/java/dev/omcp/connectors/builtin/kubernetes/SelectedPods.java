package dev.omcp.connectors.builtin.kubernetes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which pods a service's selector selects, looked up in an index of the pods' labels. Comparing
 * every service with every pod took services times pods label comparisons per topology: seconds of
 * CPU for each {@code get_topology} or blast radius over a namespace of ten thousand pods and as
 * many services. Through the index a service costs only the pods that carry its rarest label.
 */
final class SelectedPods {
    private final Map<Label, List<Resource>> byLabel = new HashMap<>();

    /** @param pods the pods to select from, of any namespace */
    SelectedPods(Collection<Resource> pods) {
        for (Resource pod : pods) {
            for (Map.Entry<String, String> label : pod.labels().entrySet()) {
                byLabel.computeIfAbsent(new Label(pod.namespace(), label.getKey(), label.getValue()), k -> new ArrayList<>()).add(pod);
            }
        }
    }

    /** The pods of {@code namespace} whose labels hold every entry of {@code selector}; none for an empty selector. */
    List<Resource> of(String namespace, Map<String, String> selector) {
        List<Resource> fewest = null;
        for (Map.Entry<String, String> wanted : selector.entrySet()) {
            List<Resource> carrying = byLabel.getOrDefault(new Label(namespace, wanted.getKey(), wanted.getValue()), List.of());
            if (fewest == null || carrying.size() < fewest.size()) {
                fewest = carrying;
            }
        }
        if (fewest == null || fewest.isEmpty()) {
            return List.of();
        }
        List<Resource> selected = new ArrayList<>();
        for (Resource pod : fewest) {
            if (pod.labels().entrySet().containsAll(selector.entrySet())) {
                selected.add(pod);
            }
        }
        return selected;
    }

    private record Label(String namespace, String key, String value) {}
}
