package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A real {@link SourceRegistry} over {@link ScriptedConnector}s: each source gets a connector type
 * of its own whose manifest declares what the scripted connector answers. No sockets, no files.
 */
final class ScriptedSources {
    private final Map<String, ConnectorType> types = new LinkedHashMap<>();
    private final List<SourceDefinition> definitions = new ArrayList<>();

    /** Adds a source served by {@code connector}, visible to everyone. */
    ScriptedSources add(String name, ScriptedConnector connector) {
        return add(name, "", connector);
    }

    /** Adds a source bound to {@code tenant} (empty for everyone). */
    ScriptedSources add(String name, String tenant, ScriptedConnector connector) {
        ConnectorManifest manifest = new ConnectorManifest(1, name, name, "1.0.0", "scripted", List.of(), connector.declared(),
                JsonObject.EMPTY_JSON_OBJECT, Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());
        ConnectorFactory factory = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return manifest;
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
                connector.boundTo(source);
                return CompletableFuture.completedFuture(connector);
            }
        };
        types.put(name, new ConnectorType(factory, manifest, ConnectorType.Origin.BUILTIN));
        definitions.add(new SourceDefinition(new SourceConfig(name, name, "", tenant, JsonObject.EMPTY_JSON_OBJECT), true,
                SourceDefinition.Origin.FILE));
        return this;
    }

    /** The started registry. */
    SourceRegistry registry() {
        return TestSourceRegistries.start("scripted", types, definitions, Duration.ofSeconds(1));
    }
}
