package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.query.TopologyNode;
import java.util.List;
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
    static List<String> forName(TopologyGraph graph, String asked) {
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
        List<String> meant = NearestName.of(asked, serviceNames);
        return meant.isEmpty() ? NearestName.of(asked, allNames) : meant;
    }

    /** Among the node ids. */
    static List<String> forId(TopologyGraph graph, String asked) {
        return NearestName.of(asked, new TreeSet<>(graph.nodes().keySet()));
    }

    /** {@code " Did you mean 'x'?"}, {@code " Did you mean 'X' or 'x'?"}, or nothing. */
    static String didYouMean(List<String> meant) {
        return NearestName.didYouMean(meant);
    }
}
