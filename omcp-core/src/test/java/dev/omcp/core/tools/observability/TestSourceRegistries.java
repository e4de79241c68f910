package dev.omcp.core.tools.observability;

import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStore;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.ConnectorContext;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts a real {@link SourceRegistry} over given connector types and source definitions, kept in
 * memory: the shared plumbing of {@link InMemorySources} and {@link ScriptedSources}. The
 * connectors get a context without HTTP (the fakes make no calls); sources are never saved.
 */
final class TestSourceRegistries {
    private TestSourceRegistries() {}

    /**
     * @param kind what the fakes are, for error messages and the store's description
     * @param startTimeout how long the registry waits for a connector to start
     */
    static SourceRegistry start(String kind, Map<String, ConnectorType> types, List<SourceDefinition> definitions,
            Duration startTimeout) {
        SourceRegistry registry = notStarted(kind, types, definitions, startTimeout);
        registry.start();
        return registry;
    }

    /** Like {@link #start}, without calling {@code start()}: what an embedder that forgets it serves. */
    static SourceRegistry notStarted(String kind, Map<String, ConnectorType> types, List<SourceDefinition> definitions,
            Duration startTimeout) {
        Map<String, ConnectorType> catalogTypes = Map.copyOf(types);
        List<ConnectorType> ordered = List.copyOf(types.values());
        ConnectorCatalog catalog = new ConnectorCatalog() {
            @Override
            public Optional<ConnectorType> find(String name) {
                return Optional.ofNullable(catalogTypes.get(name));
            }

            @Override
            public List<ConnectorType> all() {
                return ordered;
            }
        };
        List<SourceDefinition> sources = List.copyOf(definitions);
        SourceStore store = new SourceStore() {
            @Override
            public SourcesDocument load() {
                return new SourcesDocument(sources, List.of(), List.of(), false);
            }

            @Override
            public void save(List<SourceDefinition> next) {
                throw new UnsupportedOperationException(kind + " sources are never saved: tool tests do not change sources");
            }

            @Override
            public String describe() {
                return kind;
            }
        };
        ConnectorContext noHttp = new ConnectorContext() {
            @Override
            public HttpClient httpClient() {
                throw new UnsupportedOperationException(kind + " connectors make no HTTP calls");
            }

            @Override
            public Duration requestTimeout() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Clock clock() {
                return Clock.systemUTC();
            }
        };
        return new SourceRegistry(catalog, source -> noHttp, store, new EgressRules(false),
                host -> List.of(), startTimeout, Clock.systemUTC());
    }
}
