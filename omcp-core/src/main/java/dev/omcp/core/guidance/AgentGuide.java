package dev.omcp.core.guidance;

import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.resources.ResourceDefinition;
import dev.omcp.ports.resources.ResourceProvider;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The agent usage guide as an MCP resource ({@value #URI}, markdown): how to filter and aggregate
 * on the server, which tool answers which question, and the incident recipe. The text ships inside
 * the core ({@code agent-usage.md} beside this class) and is read once. Immutable, thread-safe.
 */
public final class AgentGuide implements ResourceProvider {
    /** Where the guide is read from. */
    public static final String URI = "omcp://guides/agent-usage";
    /**
     * The short guide for models that a gateway serving the observability tools sends in every
     * {@code initialize} result ({@code Gateway.builder().instructions(...)}); it points to this
     * guide and the {@linkplain IncidentPrompts incident prompts}, which say the rest.
     */
    public static final String INSTRUCTIONS = "OMCP is an observability gateway: read-only tools over metrics, logs, traces and "
            + "topology. Start with list_sources and list_services, then get_service_health and detect_anomalies; let the "
            + "server filter and aggregate instead of fetching raw data, and treat partial answers and notes as gaps, never "
            + "as zero. Read the resource " + URI + " (which tool for which question, the incident recipe) and "
            + "use the prompts " + IncidentPrompts.TRIAGE + " and " + IncidentPrompts.POSTMORTEM + ".";
    static final String MIME_TYPE = "text/markdown";
    private static final ResourceDefinition DEFINITION = new ResourceDefinition(URI, "agent-usage-guide",
            "OMCP agent usage guide",
            "How to use the observability tools: filter and aggregate on the server, which tool answers which question, "
                    + "and the incident recipe (list_services, get_service_health, detect_anomalies, get_blast_radius, "
                    + "query_traces and query_logs, generate_postmortem). Read it once before the first investigation.",
            MIME_TYPE);

    private final String text;

    private AgentGuide(String text) {
        this.text = text;
    }

    /** The guide shipped with the gateway. */
    public static AgentGuide builtin() {
        try (InputStream in = AgentGuide.class.getResourceAsStream("agent-usage.md")) {
            if (in == null) {
                throw new IllegalStateException("agent-usage.md is missing from the omcp-core jar");
            }
            return new AgentGuide(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("agent-usage.md cannot be read from the omcp-core jar", e);
        }
    }

    /** The guide's markdown. */
    public String text() {
        return text;
    }

    @Override
    public List<ResourceDefinition> resources() {
        return List.of(DEFINITION);
    }

    @Override
    public Optional<List<JsonObject>> read(String uri, Principal principal) {
        if (!URI.equals(uri)) {
            return Optional.empty();
        }
        return Optional.of(List.of(Jsonp.object().add("uri", URI).add("mimeType", MIME_TYPE).add("text", text).build()));
    }
}
