package dev.omcp.core.tools.observability;

import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStore;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.time.Clock;
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
        ConnectorCatalog catalog = new ConnectorCatalog() {
            @Override
            public Optional<ConnectorType> find(String name) {
                return Optional.ofNullable(types.get(name));
            }

            @Override
            public List<ConnectorType> all() {
                return List.copyOf(types.values());
            }
        };
        SourceStore store = new SourceStore() {
            @Override
            public SourcesDocument load() {
                return new SourcesDocument(definitions, List.of(), List.of(), false);
            }

            @Override
            public void save(List<SourceDefinition> sources) {
                throw new UnsupportedOperationException("scripted sources are not saved");
            }

            @Override
            public String describe() {
                return "scripted";
            }
        };
        SourceRegistry registry = new SourceRegistry(catalog, source -> new ConnectorContext() {
            @Override
            public HttpClient httpClient() {
                throw new UnsupportedOperationException("scripted connectors make no HTTP calls");
            }

            @Override
            public Duration requestTimeout() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Clock clock() {
                return Clock.systemUTC();
            }
        }, store, new EgressRules(false), host -> List.of(), Duration.ofSeconds(1));
        registry.start();
        return registry;
    }
}
