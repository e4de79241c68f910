package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code list_sources}: which backends the gateway can ask, and what each can answer. */
public final class ListSourcesTool extends ObservabilityTool {
    static final String NAME = "list_sources";
    private static final List<String> FAILURE_KINDS = java.util.Arrays.stream(ConnectorException.Kind.values())
            .filter(k -> k != ConnectorException.Kind.BAD_QUERY)
            .map(k -> k.name().toLowerCase(Locale.ROOT))
            .toList();
    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "List sources",
            "Lists the observability backends (sources) this gateway can query for you, with their type (prometheus, "
                    + "loki, kubernetes, a traces backend...), whether they are connected and which capabilities they serve ("
                    + String.join(", ", SourceRegistry.capabilityNames()) + "). Call it first to learn what data exists; "
                    + "then call list_services to find service names. Source URLs and credentials are never shown.",
            Schemas.object().build(),
            Optional.of(Schemas.output(Jsonp.object()
                    .add("sources", OutputFields.objects("Every source the caller may use, by name.", Jsonp.object()
                            .add("name", OutputFields.type("string"))
                            .add("type", OutputFields.typed("string", "The connector type."))
                            .add("status", Jsonp.object().add("type", "string")
                                    .add("enum", OutputFields.names(List.of("connected", "disabled", "failed", "unknown-type")))
                                    .add("description", "connected: the gateway holds a working connector for it. This tool asks "
                                            + "no backend, so a backend that is down right now still shows connected; the tools "
                                            + "that ask it say so in failedSources, and lastFailureAt below shows it."))
                            .add("capabilities", Jsonp.object().add("type", "array")
                                    .add("items", Jsonp.object().add("type", "string")
                                            .add("enum", OutputFields.names(SourceRegistry.capabilityNames())))
                                    .add("description", "What the source answers: queryMetrics (query_metrics, "
                                            + "get_service_health, detect_anomalies), discoverMetrics (the metric names a service "
                                            + "exports, for suggestions), queryLogs (query_logs lines), aggregateLogs (query_logs "
                                            + "aggregates computed by the backend), listServices (list_services), queryTraces "
                                            + "(query_traces), topology (get_topology, get_blast_radius)."))
                            .add("problem", OutputFields.typed("string", "Why the source is not connected."))
                            .add("tenant", OutputFields.typed("string", "The tenant the source is bound to, when it is."))
                            .add("lastAnswerAt", OutputFields.typed("string", "When a tool call last got an answer from the "
                                    + "source (ISO-8601, since it was connected; absent before the first). A rejected query "
                                    + "counts: the backend answered."))
                            .add("lastFailureAt", OutputFields.typed("string", "When a tool call to the source last failed. "
                                    + "Later than lastAnswerAt: the source was failing at the last call, so expect it in "
                                    + "failedSources."))
                            .add("lastFailure", Jsonp.object().add("type", "string")
                                    .add("enum", OutputFields.names(FAILURE_KINDS))
                                    .add("description", "How that call failed."))
                            .add("consecutiveFailures", OutputFields.typed("integer", "While the source is failing (its last "
                                    + "call failed): how many calls in a row have failed since its last answer."))
                            .add("failingSince", OutputFields.typed("string", "While the source is failing: when the first "
                                    + "of those calls failed (ISO-8601)."))))
                    .add("note", Jsonp.object().add("type", "string")), List.of("sources"))),
            ToolAnnotations.readOnlyLocal());

    private final Toolkit toolkit;

    public ListSourcesTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        List<SourceView> views = toolkit.sources().listForAgents(call.principal());
        JsonArrayBuilder sources = Jsonp.array();
        for (SourceView view : views) {
            JsonArrayBuilder capabilities = Jsonp.array();
            view.capabilities().forEach(capabilities::add);
            JsonObjectBuilder entry = Jsonp.object()
                    .add("name", view.name())
                    .add("type", view.type())
                    .add("status", view.status())
                    .add("capabilities", capabilities);
            if (!view.problem().isEmpty()) {
                entry.add("problem", view.problem());
            }
            if (!view.tenant().isEmpty()) {
                entry.add("tenant", view.tenant());
            }
            view.contact().addTo(entry);
            sources.add(entry);
        }
        JsonObjectBuilder result = Jsonp.object().add("sources", sources);
        Optional<String> fileProblem = toolkit.sources().storeProblem();
        if (!toolkit.sources().isStarted()) {
            // not "no sources are configured": the service embedding the gateway has not connected them
            result.add("note", "No source is connected yet: the service embedding this gateway has not started its sources "
                    + "(SourceRegistry.start()). Tell its operator.");
        } else if (fileProblem.isPresent()) {
            // not "no sources are configured": they are, in a file the gateway could not read
            result.add("note", "The gateway's sources file could not be read at start (" + fileProblem.get() + "), so no source "
                    + "from it is loaded. Tell an operator: they must fix the file and restart the gateway.");
        } else if (views.isEmpty() && call.principal().allowLists().sources().isPresent()) {
            // not "no sources are configured", nor how to add one: others may be, and this credential may not use them
            result.add("note", "None of the sources this credential may use is configured now. Tell an operator if you "
                    + "need one: its source allow-list names the sources it may use.");
        } else if (views.isEmpty()) {
            result.add("note", "No sources are configured. " + toolkit.howToAddSources());
        }
        JsonObject json = result.build();
        return ToolResult.structured(json);
    }
}
