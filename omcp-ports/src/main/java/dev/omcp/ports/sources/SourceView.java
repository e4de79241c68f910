package dev.omcp.ports.sources;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * A source as the management API shows it: never the full URL, never a secret.
 *
 * @param name the source name
 * @param type the connector type
 * @param endpoint {@code scheme://host[:port]} of the URL (no path, query or credentials), or empty
 *     string when the source has no URL
 * @param tenant the tenant binding, or empty string
 * @param enabled whether it should be connected
 * @param origin where it was defined
 * @param status {@code connected}, {@code disabled}, {@code failed} or {@code unknown-type}
 * @param problem why it is not connected, or empty string
 * @param capabilities the capabilities the connector both declares and implements, for example
 *     {@code queryMetrics}
 * @param settings the settings with every secret replaced by {@link ManageSources#MASK}
 * @param contact when tool calls last got an answer from the source and when one last failed
 */
public record SourceView(
        String name, String type, String endpoint, String tenant, boolean enabled, SourceDefinition.Origin origin,
        String status, String problem, List<String> capabilities, JsonObject settings, SourceContact contact) {
    public SourceView {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(problem, "problem");
        capabilities = List.copyOf(capabilities);
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(contact, "contact");
    }

    /** A source no tool call has reached yet. */
    public SourceView(String name, String type, String endpoint, String tenant, boolean enabled, SourceDefinition.Origin origin,
            String status, String problem, List<String> capabilities, JsonObject settings) {
        this(name, type, endpoint, tenant, enabled, origin, status, problem, capabilities, settings, SourceContact.NONE);
    }
}
