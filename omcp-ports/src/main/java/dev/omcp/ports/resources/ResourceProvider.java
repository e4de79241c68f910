package dev.omcp.ports.resources;

import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * A source of MCP resources. The gateway merges every provider's resources; the first provider
 * that can read a URI answers it. The gateway announces its resources without {@code listChanged}:
 * {@link #resources()} is asked on every {@code resources/list}, but no client is told when its
 * answer changes, so a provider should serve a fixed list.
 */
public interface ResourceProvider {

    /** Direct resources this provider serves. */
    List<ResourceDefinition> resources();

    /** Resource templates this provider serves; empty by default. */
    default List<ResourceTemplateDefinition> templates() {
        return List.of();
    }

    /**
     * Reads one resource.
     *
     * @return the {@code contents} entries ({@code {uri, mimeType, text}} or {@code {uri, mimeType,
     *     blob}}), or empty when this provider does not serve {@code uri}
     */
    Optional<List<JsonObject>> read(String uri, Principal principal);

    /**
     * Suggests values for a template variable ({@code completion/complete} with {@code ref/resource}).
     *
     * @return suggestions starting with {@code prefix}, best first; empty by default
     */
    default List<String> complete(String uriTemplate, String variable, String prefix) {
        return List.of();
    }
}
