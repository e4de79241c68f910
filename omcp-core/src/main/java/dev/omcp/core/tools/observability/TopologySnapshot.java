package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Topology;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The topology every topology source reports for a caller, asked in parallel and merged into one
 * graph by canonical node id ({@link TopologyGraph#merge}). What failed is kept so a tool can say
 * which provider was down.
 */
final class TopologySnapshot {
    private final Gathered<Topology> gathered;
    private final Optional<TopologyGraph> graph;

    private TopologySnapshot(Gathered<Topology> gathered) {
        this.gathered = gathered;
        Map<String, Topology> bySource = new LinkedHashMap<>();
        gathered.answers().forEach(a -> bySource.put(a.source(), a.value()));
        this.graph = bySource.isEmpty() ? Optional.empty() : Optional.of(TopologyGraph.merge(bySource));
    }

    /**
     * Asks every topology source the caller may use.
     *
     * @param namespace only that namespace, or empty string for everything
     */
    static TopologySnapshot gather(Toolkit toolkit, Principal principal, String namespace) {
        List<Bound<TopologyCapability>> bound = toolkit.sources().with(TopologyCapability.class, principal);
        return new TopologySnapshot(Gathered.from(toolkit, bound, c -> c.topology(namespace)));
    }

    /** The snapshot of what a fan-out the caller ran itself gathered. */
    static TopologySnapshot of(Gathered<Topology> gathered) {
        return new TopologySnapshot(gathered);
    }

    /** The answers and failures, for the common output members. */
    Gathered<Topology> gathered() {
        return gathered;
    }

    /** The merged graph; empty when no source answered. */
    Optional<TopologyGraph> graph() {
        return graph;
    }

    /** No source serves topology for this caller. */
    boolean noSource() {
        return gathered.noSource();
    }

    /** Sources exist but every one of them failed. */
    boolean allFailed() {
        return !gathered.noSource() && gathered.answers().isEmpty();
    }

    /** The failures as {@code "source: message"}, joined; empty when none failed. Never holds a URL. */
    String failureSummary() {
        return gathered.failures().stream().map(f -> f.source() + ": " + f.message()).collect(Collectors.joining("; "));
    }

    /** Whether a source that answered said its topology has gaps, or the merge left part of an answer out. */
    boolean hasGaps() {
        return !gapsBySource().isEmpty();
    }

    /** Per source that answered, the gaps it declared and then those the merge found ({@link TopologyGraph#gaps()}). */
    private Map<String, List<String>> gapsBySource() {
        Map<String, List<String>> gaps = new LinkedHashMap<>();
        for (Gathered.Answer<Topology> a : gathered.answers()) {
            List<String> merged = graph.map(g -> g.gaps().getOrDefault(a.source(), List.of())).orElse(List.of());
            if (!a.value().gaps().isEmpty() || !merged.isEmpty()) {
                List<String> all = new ArrayList<>(a.value().gaps());
                all.addAll(merged);
                gaps.put(a.source(), all);
            }
        }
        return gaps;
    }

    /**
     * Adds {@code topologyGaps}, one entry per source that answered with gaps: a kind it could not
     * list, listed in part, or may have out of date, or nodes the merge left out of its answer
     * because their ids could stand for another resource. Nothing when none did.
     */
    void writeGaps(JsonObjectBuilder out) {
        if (!hasGaps()) {
            return;
        }
        JsonArrayBuilder entries = Jsonp.array();
        gapsBySource().forEach((source, gaps) -> {
            JsonArrayBuilder list = Jsonp.array();
            gaps.forEach(list::add);
            entries.add(Jsonp.object().add("source", source).add("gaps", list));
        });
        out.add("topologyGaps", entries);
    }

    /** The sentence a tool's note carries when a source answered with gaps. */
    static final String GAPS_NOTE = "A topology source answered with gaps (see topologyGaps): resources of the kinds it names may be "
            + "missing or out of date, so what depends on them may be more than shown.";

    /** The {@code topologyGaps} member of an output schema. */
    static JsonObject gapsSchema() {
        return Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                        .add("source", Jsonp.object().add("type", "string"))
                        .add("gaps", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string")))))
                .add("description", "Present only when a source answered with gaps: kinds it could not list (permissions), listed "
                        + "only in part (limits), or may have out of date.").build();
    }

    /** The note for a caller who has no topology source. */
    static final String NO_SOURCE_NOTE = "No connected source serves topology. Add a kubernetes source (the builtin connector) "
            + "or a connector plugin with the topology capability (the zipkin reference plugin derives service calls from traces); "
            + "list_sources shows what each source can answer.";
}
