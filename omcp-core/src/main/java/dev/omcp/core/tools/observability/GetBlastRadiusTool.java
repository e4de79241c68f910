package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.blast.AffectedNode;
import dev.omcp.core.analysis.blast.BlastRadius;
import dev.omcp.core.analysis.blast.BlastRadiusOptions;
import dev.omcp.core.analysis.blast.BlastRadiusWalker;
import dev.omcp.core.analysis.topology.ResourceTrouble;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code get_blast_radius}: what a failing service or resource takes down, by a capped walk over
 * the topology merged from every topology source ({@link BlastRadiusWalker}), grouped by the host
 * each affected resource runs on and by its ownership root.
 */
public final class GetBlastRadiusTool extends ObservabilityTool {
    static final String NAME = "get_blast_radius";
    static final int MAX_NODES = 1000;
    static final int MAX_HOPS = 20;
    /**
     * The most names {@code affectedServices} lists. The list is taken over the whole walk, not the
     * {@code maxNodes} cap, so without a bound of its own a topology of a hundred thousand callers
     * would put every one of their names into the answer.
     */
    static final int MAX_AFFECTED_SERVICES = 1000;
    /**
     * Targets listed at most. A bare service name matches that service and its workloads in every
     * namespace, so a name common to hundreds of namespaces would list hundreds of starting points
     * while {@code nodes} stays within {@code maxNodes}; the walk still starts from all of them.
     */
    static final int MAX_TARGETS = 100;
    static final String RESOURCE_PATTERN = "^[a-z][a-z0-9]{0,31}/[A-Za-z0-9_.:/-]{1,253}$";
    /** Kinds whose name is a service name an agent can pass to the other tools. */

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Get blast radius",
            "Answers \"if this service or resource is degraded, what else is affected?\" by walking the topology merged "
                    + "from every topology source: callers and dependents of the target (service calls, Kubernetes services "
                    + "selecting its pods), owners up to their root (pod, replica set, deployment), and what runs on it when the "
                    + "target is a node or host. Give exactly one of `service` (a name such as payments-db or shop/payments-db) "
                    + "or `resource` (a topology id from get_topology, such as node/worker-2). Returns the affected resources "
                    + "nearest first with their hop distance and how they are affected, the affected services by name, and "
                    + "groups by host and by ownership root; capped at `maxNodes` and marked truncated. Use it once you know which "
                    + "service or resource is failing, to learn what it takes down. Next: "
                    + "get_service_health or query_traces for the affected services, or generate_postmortem.",
            Schemas.object()
                    .property("service", Schemas.service("The degraded service: a name (payments-db) or namespace/name "
                            + "(shop/payments-db). Give this or `resource`."))
                    .property("resource", Jsonp.object().add("type", "string").add("pattern", RESOURCE_PATTERN)
                            .add("description", "The degraded resource as a topology id, kind/namespace/name or kind/name "
                                    + "(node/worker-2, pod/shop/payments-db-0). Give this or `service`.").build())
                    .property("maxNodes", Schemas.integer("The most affected resources to list (targets included), nearest first.",
                            1, MAX_NODES, BlastRadiusOptions.DEFAULT_MAX_NODES))
                    .property("maxHops", Schemas.integer("How many relations away from the target to follow.", 1, MAX_HOPS,
                            BlastRadiusOptions.DEFAULT_MAX_HOPS))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("service", Jsonp.object().add("type", "string"))
                    .add("resource", Jsonp.object().add("type", "string"))
                    .add("targets", stringArray("The topology ids the walk started from, up to " + MAX_TARGETS + "."))
                    .add("targetsOmitted", Jsonp.object().add("type", "integer").add("description", "Present only when the name "
                            + "matched more than " + MAX_TARGETS + " resources: how many targets are not listed (the walk started "
                            + "from them too)."))
                    .add("unresolved", stringArray("Targets no topology node matched."))
                    .add("total", Jsonp.object().add("type", Jsonp.array().add("integer").add("null"))
                            .add("description", "Affected resources found, targets included, before the cap; null when unknown."))
                    .add("affectedServices", stringArray("Names of the services and workloads affected beyond the target, nearest first; "
                            + "complete even when nodes is truncated, up to " + MAX_AFFECTED_SERVICES + " names."))
                    .add("affectedServicesOmitted", Jsonp.object().add("type", "integer").add("description", "Present only when more "
                            + "than " + MAX_AFFECTED_SERVICES + " services are affected: how many names affectedServices leaves out."))
                    .add("nodes", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                            .add("properties", Jsonp.object()
                                    .add("id", Jsonp.object().add("type", "string"))
                                    .add("kind", Jsonp.object().add("type", "string"))
                                    .add("name", Jsonp.object().add("type", "string"))
                                    .add("namespace", Jsonp.object().add("type", "string"))
                                    .add("hops", Jsonp.object().add("type", "integer"))
                                    .add("via", Jsonp.object().add("type", "string"))
                                    .add("impact", Jsonp.object().add("type", "string"))
                                    .add("host", Jsonp.object().add("type", "string"))
                                    .add("ownerRoot", Jsonp.object().add("type", "string"))
                                    .add("attention", OutputFields.map("Present only on a resource already in trouble, as its "
                                            + "source reports it: a pod's waitingReason (CrashLoopBackOff, ImagePullBackOff...), "
                                            + "lastTerminationReason (OOMKilled, Error...), restarts, terminating. The note says what "
                                            + "they mean.", "string")))))
                    .add("byHost", idsBy("Host or node id to the affected ids on it."))
                    .add("byOwner", idsBy("Ownership root id to the affected ids it owns."))
                    .add("truncated", Jsonp.object().add("type", "boolean"))
                    .add("omitted", Jsonp.object().add("type", "integer"))
                    .add("maxHopsReached", Jsonp.object().add("type", "boolean"))
                    .add("topologyGaps", TopologySnapshot.gapsSchema()),
                    List.of("targets", "unresolved", "total", "affectedServices", "nodes", "byHost", "byOwner", "truncated", "sources",
                            "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;
    private final BlastRadiusWalker walker = new BlastRadiusWalker();

    public GetBlastRadiusTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    /** A map from a node id (data, not a field name) to the ids grouped under it. */
    private static JsonObjectBuilder idsBy(String description) {
        return Jsonp.object().add("type", "object").add("additionalProperties", Jsonp.object().add("type", "array")
                .add("items", Jsonp.object().add("type", "string"))).add("description", description);
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    private static JsonObject stringArray(String description) {
        return Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string")).add("description", description).build();
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        Optional<String> service = args.optionalString("service");
        Optional<String> resource = args.optionalString("resource");
        if (service.isPresent() == resource.isPresent()) {
            throw new InvalidArgumentException((service.isPresent() ? "service and resource were both given: " : "")
                    + "give service (a service name such as payments-db) or resource (a topology id kind/namespace/name "
                    + "such as deployment/shop/payments-db, or kind/name such as node/worker-2), exactly one of them");
        }
        BlastRadiusOptions options = new BlastRadiusOptions(args.integer("maxNodes", BlastRadiusOptions.DEFAULT_MAX_NODES),
                args.integer("maxHops", BlastRadiusOptions.DEFAULT_MAX_HOPS));
        String target = service.orElseGet(resource::get);

        TopologySnapshot snapshot = TopologySnapshot.gather(toolkit, call.principal(), "");
        JsonObjectBuilder result = Jsonp.object();
        service.ifPresent(s -> result.add("service", s));
        resource.ifPresent(r -> result.add("resource", r));
        if (snapshot.graph().isEmpty()) {
            result.add("targets", Jsonp.array()).add("unresolved", Jsonp.array()).add("total", JsonValue.NULL)
                    .add("affectedServices", Jsonp.array()).add("nodes", Jsonp.array()).add("byHost", Jsonp.object())
                    .add("byOwner", Jsonp.object()).add("truncated", false);
            snapshot.gathered().writeTo(result);
            result.add("note", snapshot.noSource() ? "The blast radius is unknown: " + TopologySnapshot.NO_SOURCE_NOTE
                    : "The blast radius is unknown: the topology provider is down (" + snapshot.failureSummary() + "). Try again "
                            + "later; list_sources shows the sources' status.");
            return ToolResult.structured(result.build());
        }
        TopologyGraph graph = snapshot.graph().get();
        BlastRadius blast = resource.isPresent() && graph.node(resource.get()) == null
                // a resource id must name a node exactly; only service names are matched by name
                ? new BlastRadius(List.of(), List.of(resource.get()), List.of(), Map.of(), Map.of(), false, 0, false, graph.sources(), List.of())
                : walker.walk(graph, List.of(target), options);

        JsonObject walked = blast.toJson();
        walked.forEach((key, value) -> {
            if (!key.equals("sources") && !key.equals("targets")) {
                result.add(key, value);
            }
        });
        JsonArrayBuilder targets = Jsonp.array();
        blast.targets().stream().limit(MAX_TARGETS).forEach(targets::add);
        result.add("targets", targets);
        if (blast.targets().size() > MAX_TARGETS) {
            result.add("targetsOmitted", blast.targets().size() - MAX_TARGETS);
        }
        if (!blast.unresolved().isEmpty()) {
            result.add("total", JsonValue.NULL);
        }
        JsonArrayBuilder affected = Jsonp.array();
        blast.affectedServices().stream().limit(MAX_AFFECTED_SERVICES).forEach(affected::add);
        result.add("affectedServices", affected);
        int servicesOmitted = Math.max(0, blast.affectedServices().size() - MAX_AFFECTED_SERVICES);
        if (servicesOmitted > 0) {
            result.add("affectedServicesOmitted", servicesOmitted);
        }
        snapshot.gathered().writeTo(result);
        snapshot.writeGaps(result);
        Optional<String> twins = CaseTwins.note(graph, blast.nodes().stream().map(AffectedNode::id).toList(), NAME, "resource");
        note(blast, target, snapshot, options, () -> TopologyNameSuggestions.didYouMean(resource.isPresent()
                ? TopologyNameSuggestions.forId(graph, target) : TopologyNameSuggestions.forName(graph, target)), twins)
                .ifPresent(n -> result.add("note", n));
        return ToolResult.structured(result.build());
    }

    private static Optional<String> note(BlastRadius blast, String target, TopologySnapshot snapshot, BlastRadiusOptions options,
            Supplier<String> didYouMean, Optional<String> caseTwins) {
        List<String> parts = new ArrayList<>();
        if (!blast.unresolved().isEmpty()) {
            parts.add("'" + target + "' is not in the topology, so its blast radius is unknown. get_topology lists the resources "
                    + "the topology sources know; list_services lists service names." + didYouMean.get());
        } else if (blast.nodes().size() == blast.targets().size()) {
            parts.add("Nothing else depends on '" + target + "' in the known topology: no callers, dependents or owners were found.");
        }
        caseTwins.ifPresent(parts::add);
        Map<String, Map<String, String>> trouble = new LinkedHashMap<>();
        blast.nodes().forEach(n -> trouble.put(n.id(), n.attention()));
        ResourceTrouble.note(trouble, "affected resource").ifPresent(parts::add);
        if (blast.targets().size() > MAX_TARGETS) {
            parts.add("'" + target + "' matched " + blast.targets().size() + " resources (the same name in many namespaces); "
                    + "targets lists " + MAX_TARGETS + " and targetsOmitted counts the rest. Give namespace/name (for example "
                    + "shop/" + target + ") to walk from one of them.");
        }
        if (blast.truncated()) {
            parts.add("Truncated: " + blast.omitted() + " more affected resources were reachable; raise maxNodes (at most "
                    + MAX_NODES + ") to list them.");
        }
        if (blast.affectedServices().size() > MAX_AFFECTED_SERVICES) {
            parts.add("affectedServices lists the " + MAX_AFFECTED_SERVICES + " nearest of " + blast.affectedServices().size()
                    + " affected services (nearest first, then by name); affectedServicesOmitted counts the rest.");
        }
        if (blast.maxHopsReached()) {
            parts.add("The walk stopped at " + options.maxHops() + (options.maxHops() == 1 ? " hop" : " hops")
                    + " with more to explore; raise maxHops to follow further.");
        }
        if (snapshot.gathered().partial()) {
            parts.add("Some topology sources failed (" + snapshot.failureSummary() + "); the radius may be incomplete.");
        }
        if (snapshot.hasGaps()) {
            parts.add(TopologySnapshot.GAPS_NOTE);
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", parts));
    }
}
