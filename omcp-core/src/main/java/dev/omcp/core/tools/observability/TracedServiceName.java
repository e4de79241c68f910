package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.ports.identity.Principal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The name the traces sources know a service by. Tracing SDKs name a service without its namespace
 * ({@code payments}), while the other tools also take the namespaced form ({@code shop/payments})
 * that topology ids use. So a name with a slash is resolved through the topology exactly as
 * get_topology and get_blast_radius resolve it ({@link TopologyGraph#resolve}), and the traces
 * sources are asked for the name of the node found there. When the topology cannot say, the name
 * is asked as given and {@code unresolved} says why, for the note of an empty answer.
 *
 * @param asked the name as the caller wrote it
 * @param traced the name the traces sources are asked for
 * @param resolvedFrom the topology node {@code traced} is the name of; empty when asked as given
 * @param unresolved why a namespaced name could not be resolved; empty when it was, or had no slash
 * @param suggested the topology's {@code namespace/name}s an unresolved one most likely meant
 *     ({@code shop/payments} for {@code shop/Payments}, {@link TopologyNameSuggestions#forName}): offered
 *     in the note, never asked for, as names are matched exactly everywhere
 */
record TracedServiceName(String asked, String traced, Optional<String> resolvedFrom, Optional<String> unresolved,
        List<String> suggested) {
    TracedServiceName {
        Objects.requireNonNull(asked, "asked");
        Objects.requireNonNull(traced, "traced");
        Objects.requireNonNull(resolvedFrom, "resolvedFrom");
        Objects.requireNonNull(unresolved, "unresolved");
        suggested = List.copyOf(suggested);
    }

    /** Resolves {@code asked}; asks the topology sources only when the name has a slash. */
    static TracedServiceName resolve(Toolkit toolkit, Principal principal, String asked) {
        if (asked.indexOf('/') < 0) {
            return new TracedServiceName(asked, asked, Optional.empty(), Optional.empty(), List.of());
        }
        TopologySnapshot topology = TopologySnapshot.gather(toolkit, principal, "");
        if (topology.graph().isEmpty()) {
            return asGiven(asked, topology.noSource() ? "no source serves topology"
                    : "the topology sources failed (" + topology.failureSummary() + ")", List.of());
        }
        TopologyGraph graph = topology.graph().get();
        List<String> ids = graph.resolve(asked);
        if (ids.isEmpty()) {
            return asGiven(asked, "the topology has no service " + asked, TopologyNameSuggestions.forName(graph, asked));
        }
        // a Kubernetes service and its deployment share the name; the service reads best in a note
        String id = ids.stream().filter(i -> graph.node(i).node().kind().equals("service")).findFirst().orElse(ids.getFirst());
        return new TracedServiceName(asked, graph.node(id).node().name(), Optional.of(id), Optional.empty(), List.of());
    }

    private static TracedServiceName asGiven(String asked, String why, List<String> suggested) {
        return new TracedServiceName(asked, asked, Optional.empty(), Optional.of(why), suggested);
    }

    /** {@code A namespace/name is resolved through the topology, but …}: why it was asked as given, when it was not resolved. */
    Optional<String> whyAsGiven() {
        return unresolved.map(why -> "A namespace/name is resolved through the topology, but " + why + ".");
    }

    /**
     * {@link #whyAsGiven} with the topology's spelling, if it has one: for an empty answer whose traces sources cannot
     * say whether they know the name. Offered only: the name asked stays the caller's, as names are matched exactly.
     */
    Optional<String> unresolvedNote() {
        return whyAsGiven().map(why -> why + NearestName.didYouMean(suggested));
    }

    /** How the traces sources were asked, when not by the name as given. */
    Optional<String> explanation() {
        return resolvedFrom.map(id -> "Asked the traces sources for " + traced + ", the name of " + id + " in the topology.");
    }
}
