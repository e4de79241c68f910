package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** {@code list_services}: every service the sources know, merged by name across sources. */
public final class ListServicesTool extends ObservabilityTool {
    static final String NAME = "list_services";
    private static final int DEFAULT_LIMIT = 200;
    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "List services",
            "Lists the services the configured sources know (metrics targets, log streams, cluster workloads, traced "
                    + "services), merged by name, each with the sources that know it and its service-catalog entry (owner, "
                    + "tier, on-call, SLO) when a catalog is configured. Its `attributesBySource` is what each source said about it "
                    + "(how many of its Prometheus targets are up, its Kubernetes namespace), to see at a glance which service looks "
                    + "unwell or where it runs without another call. Use it to learn the exact names the other tools take; `filter` "
                    + "narrows by substring. Next: "
                    + "get_service_health for one service, or detect_anomalies across all of them.",
            Schemas.object()
                    .property("filter", Schemas.string("Only services whose name contains this text (case-insensitive).", 128))
                    .property("source", Schemas.source("Only ask this source (a name from list_sources)."))
                    .property("limit", Schemas.integer("The most services to return, sorted by name.", 1, 1000, DEFAULT_LIMIT))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("services", OutputFields.objects("The services, by name.", Jsonp.object()
                            .add("name", OutputFields.type("string"))
                            .add("sources", OutputFields.strings("The sources that know the service by this name."))
                            .add("attributesBySource", ServiceAttributes.schema())
                            .add("catalog", ServiceCatalog.schema())))
                    .add("total", Jsonp.object().add("type", "integer"))
                    .add("truncated", Jsonp.object().add("type", "boolean")), List.of("services", "total", "truncated", "sources", "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;

    public ListServicesTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        Optional<String> onlySource = args.optionalString("source");
        SourceArgument.check(toolkit.sources(), onlySource, ServiceListingCapability.class, "service listings", call.principal());
        List<Bound<ServiceListingCapability>> bound = toolkit.sources().with(ServiceListingCapability.class, call.principal(),
                onlySource.map(Set::of));
        String filter = args.optionalString("filter").map(f -> f.toLowerCase(Locale.ROOT)).orElse("");
        // only the names this call can show are checked, so a filter is answered at once however many names a plugin lists
        Gathered<ServiceListing> gathered = ServiceListings.of(toolkit, call.principal(), bound, toolkit.deadline(),
                name -> matches(name, filter));
        Map<String, TreeSet<String>> byName = new TreeMap<>();
        // what the sources said comes from the same answers: a source the caller may not see said nothing here either
        ServiceAttributes attributes = new ServiceAttributes(toolkit.failureRedaction());
        for (Gathered.Answer<ServiceListing> answer : gathered.answers()) {
            for (ServiceInfo service : answer.value().services()) {
                if (matches(service.name(), filter)) {
                    byName.computeIfAbsent(service.name(), n -> new TreeSet<>()).add(answer.source());
                    attributes.add(answer.source(), service);
                }
            }
        }
        int limit = args.integer("limit", DEFAULT_LIMIT);
        JsonArrayBuilder services = Jsonp.array();
        List<String> names = new ArrayList<>(byName.keySet());
        for (String name : names.subList(0, Math.min(limit, names.size()))) {
            JsonArrayBuilder sources = Jsonp.array();
            byName.get(name).forEach(sources::add);
            JsonObjectBuilder entry = Jsonp.object().add("name", name).add("sources", sources);
            attributes.of(name).ifPresent(said -> entry.add("attributesBySource", said));
            toolkit.catalog().entry(name).ifPresent(catalog -> entry.add("catalog", catalog));
            services.add(entry);
        }
        JsonObjectBuilder result = gathered.writeTo(Jsonp.object()
                .add("services", services)
                .add("total", names.size())
                .add("truncated", names.size() > limit));
        // what a source said its listing left out: the names shown may then lack some services
        ServiceListings.warned(toolkit, gathered).writeTo(result);
        // what was shortened of what the sources said comes after why the list itself may lack services
        String note = Stream.of(note(gathered, onlySource, filter, names.size(), limit), attributes.note()).flatMap(Optional::stream)
                .collect(Collectors.joining(" "));
        if (!note.isEmpty()) {
            result.add("note", note);
        }
        return ToolResult.structured(result.build());
    }

    /** Why the list may lack services, is empty or cut, if it is. */
    private static Optional<String> note(Gathered<ServiceListing> gathered, Optional<String> onlySource, String filter, int known,
            int limit) {
        if (gathered.noSource()) {
            return Optional.of(onlySource.isPresent()
                    ? "Source '" + onlySource.get() + "' does not exist, is not connected, or cannot list services; call list_sources."
                    : "No connected source can list services. Configure a prometheus, loki or kubernetes source (see list_sources).");
        }
        if (gathered.answers().isEmpty()) {
            // Every source failed: the list is unknown, not empty (issue 4: no data is a note, never a false answer).
            return Optional.of("Every source that lists services failed, so which services exist is unknown; see failedSources.");
        }
        if (known == 0) {
            // a failed source, or a listing cut short, may hold every service: then nothing shown is not "none known"
            // and a listing that said it left names out (backendWarnings) may have left out every one
            boolean warned = !ServiceListings.warnedSources(gathered).isEmpty();
            String unheard = gathered.partial() ? " among the sources that answered; others failed or left names out, so more may"
                    + " exist: see failedSources."
                    : warned ? ", but the sources said their listings left names out, so services may exist: see backendWarnings." : ".";
            return Optional.of(filter.isEmpty()
                    ? (gathered.partial() || warned ? "No service is listed" + unheard : "The sources answered but know no services yet.")
                    : "No service name contains '" + filter + "'" + unheard);
        }
        if (known > limit) {
            return Optional.of(String.format(Locale.ROOT, "%d services %s; showing the first %d by name. Narrow with filter, "
                    + "or raise limit.", known, filter.isEmpty() ? "are known" : "match", limit));
        }
        return Optional.empty();
    }

    /** Whether {@code name} contains {@code filter}, given in lower case (case-insensitive). */
    private static boolean matches(String name, String filter) {
        return name.toLowerCase(Locale.ROOT).contains(filter);
    }
}
