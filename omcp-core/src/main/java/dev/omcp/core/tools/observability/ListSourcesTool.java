package dev.omcp.core.tools.observability;

import dev.omcp.ports.sources.SourceView;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Optional;

/** {@code list_sources}: which backends the gateway can ask, and what each can answer. */
public final class ListSourcesTool extends ObservabilityTool {
    static final String NAME = "list_sources";
    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "List sources",
            "Lists the observability backends (sources) this gateway can query for you, with their type (prometheus, "
                    + "loki, kubernetes, a traces backend...), whether they are connected and which capabilities they serve "
                    + "(queryMetrics, queryLogs, listServices, queryTraces, topology). Call it first to learn what data exists; "
                    + "then call list_services to find service names. Source URLs and credentials are never shown.",
            Schemas.object().build(),
            Optional.of(Schemas.output(Jsonp.object()
                    .add("sources", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")))
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
        List<SourceView> views = toolkit.sources().list(call.principal());
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
            sources.add(entry);
        }
        JsonObjectBuilder result = Jsonp.object().add("sources", sources);
        if (views.isEmpty()) {
            result.add("note", "No sources are configured. An operator adds them with a sources file (CONFIG_PATH), "
                    + "PROMETHEUS_URL / LOKI_URL, or POST /api/sources.");
        }
        JsonObject json = result.build();
        return ToolResult.structured(json);
    }
}
