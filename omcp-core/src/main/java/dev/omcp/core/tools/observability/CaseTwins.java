package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sentence {@code get_topology} and {@code get_blast_radius} add when a node they list has a
 * twin they do not list: a node whose id differs only in case ({@link TopologyGraph#sameButCase}).
 * Ids are case-sensitive, so a source that keeps a tracing SDK's spelling ({@code API}) beside a
 * cluster's lower-case names ({@code api}) splits one service into two nodes, and a walk or a
 * neighbourhood stops at the spelling it started from. Merging them would be a guess (one source
 * may hold both spellings as two services) and would ask that source for a name it does not know,
 * so the answer names the twin and how to ask for it instead of passing for the whole radius.
 */
final class CaseTwins {
    /** Twins named at most; the rest are counted. */
    static final int MAX_NAMED = 3;
    /** The longest id quoted: ids are a source's text. */
    private static final int MAX_QUOTED_ID = 128;

    private CaseTwins() {}

    /**
     * The note for the twins of {@code listed} that {@code listed} lacks; empty when there are none.
     *
     * @param listed the node ids the answer lists, in its order
     * @param tool the tool to call for a twin
     * @param argument its argument that takes a node id
     */
    static Optional<String> note(TopologyGraph graph, List<String> listed, String tool, String argument) {
        Set<String> shown = new HashSet<>(listed);
        Set<String> named = new HashSet<>();
        List<String> pairs = new ArrayList<>();
        List<String> retries = new ArrayList<>();
        int more = 0;
        for (String id : listed) {
            for (String twin : graph.sameButCase(id)) {
                if (shown.contains(twin) || !named.add(twin)) {
                    continue;
                }
                if (pairs.size() == MAX_NAMED) {
                    more++;
                    continue;
                }
                List<String> sources = graph.node(twin).sources();
                pairs.add(quoted(twin) + (sources.isEmpty() ? "" : " (from " + String.join(", ", sources) + ")")
                        + " beside the listed " + quoted(id));
                retries.add("{\"" + argument + "\": " + Jsonp.value(quoted(twin)) + "}");
            }
        }
        if (pairs.isEmpty()) {
            return Optional.empty();
        }
        boolean one = pairs.size() == 1 && more == 0;
        return Optional.of("Topology ids are case-sensitive, so ids that differ only in case are separate nodes and what reaches one "
                + "is not followed to the other: " + String.join("; ", pairs) + (more == 0 ? "" : "; and " + more + " more")
                + ". If " + (one ? "they are one service" : "a pair is one service") + ", also call " + tool + " with "
                + String.join(" or ", retries) + ".");
    }

    private static String quoted(String id) {
        return BackendText.quoted(id, MAX_QUOTED_ID);
    }
}
