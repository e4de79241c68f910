package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.query.TopologyNode;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The topology node a name or id that matched nothing most likely meant, for the "did you mean" of
 * {@code get_blast_radius} and {@code get_topology}: suggested from the merged topology itself, so
 * the suggestion is a name those tools resolve.
 */
final class TopologyNameSuggestions {
    private TopologyNameSuggestions() {}

    /**
     * Among the names of service-like nodes (as {@link TopologyGraph#resolve} prefers them), else of
     * any node. A {@code namespace/name} is compared with the nodes' {@code namespace/name}, so
     * {@code prod/API} is offered {@code prod/api}: compared with bare names it would be offered nothing.
     */
    static Optional<String> forName(TopologyGraph graph, String asked) {
        boolean namespaced = asked.indexOf('/') > 0;
        Set<String> serviceNames = new TreeSet<>();
        Set<String> allNames = new TreeSet<>();
        graph.nodes().values().forEach(n -> {
            TopologyNode node = n.node();
            String name = namespaced && !node.namespace().isEmpty() ? node.namespace() + "/" + node.name() : node.name();
            allNames.add(name);
            if (TopologyGraph.SERVICE_KINDS.contains(node.kind())) {
                serviceNames.add(name);
            }
        });
        return NearestName.of(asked, serviceNames).or(() -> NearestName.of(asked, allNames));
    }

    /** Among the node ids. */
    static Optional<String> forId(TopologyGraph graph, String asked) {
        return NearestName.of(asked, new TreeSet<>(graph.nodes().keySet()));
    }

    /** {@code " Did you mean 'x'?"}, or nothing. */
    static String didYouMean(Optional<String> suggestion) {
        return suggestion.map(s -> " Did you mean '" + s + "'?").orElse("");
    }
}
