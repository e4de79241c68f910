package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.manifest.Capabilities;
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
 * A real {@link SourceRegistry} over in-memory connectors, so tool tests route by capability and
 * tenant exactly as the gateway does, without sockets. Each connector declares the capabilities it
 * implements; its type is its own name, so one registry can mix any fakes.
 */
final class InMemorySources {
    private final Map<String, Connector> connectors = new LinkedHashMap<>();
    private final Map<String, String> tenants = new LinkedHashMap<>();
    private final java.util.Set<String> plugins = new java.util.HashSet<>();
    private final Map<String, String> urls = new LinkedHashMap<>();

    /** Adds a source whose connector is {@code connector} (its {@code source().name()} names it). */
    InMemorySources add(Connector connector) {
        return add(connector, "");
    }

    /** Adds a source bound to {@code tenant}. */
    InMemorySources add(Connector connector, String tenant) {
        connectors.put(connector.source().name(), connector);
        tenants.put(connector.source().name(), tenant);
        return this;
    }

    /**
     * Adds a source whose connector type is a plugin's (loaded from {@code PLUGINS_DIR}), not built into the gateway: its
     * type is {@code plugin-} and the connector's type, so a builtin of the same fake can sit beside it.
     */
    InMemorySources addPlugin(Connector connector) {
        add(connector, "");
        plugins.add(connector.source().name());
        return this;
    }

    /** Gives a source added before another URL than {@code https://<name>.example.com}, which the egress rules judge at start. */
    InMemorySources url(String source, String url) {
        urls.put(source, url);
        return this;
    }

    SourceRegistry registry() {
        return registry(true);
    }

    /** The registry as an embedder that never calls {@code start()} serves it. */
    SourceRegistry notStartedRegistry() {
        return registry(false);
    }

    private SourceRegistry registry(boolean started) {
        Map<String, ConnectorType> types = new LinkedHashMap<>();
        List<SourceDefinition> definitions = new ArrayList<>();
        for (Connector c : connectors.values()) {
            String name = c.source().name();
            boolean plugin = plugins.contains(name);
            String type = (plugin ? "plugin-" : "") + c.source().type();
            ConnectorManifest manifest = new ConnectorManifest(1, type, type, "1.0.0", "in-memory test connector", List.of(),
                    capabilitiesOf(c), JsonObject.EMPTY_JSON_OBJECT, Optional.empty(), Optional.empty(), List.of(), Optional.empty(),
                    Optional.empty());
            ConnectorFactory factory = new ConnectorFactory() {
                @Override
                public ConnectorManifest manifest() {
                    return manifest;
                }

                @Override
                public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
                    return CompletableFuture.completedFuture(connectors.get(source.name()));
                }
            };
            types.put(type, new ConnectorType(factory, manifest, plugin ? ConnectorType.Origin.FILESYSTEM : ConnectorType.Origin.BUILTIN));
            definitions.add(new SourceDefinition(new SourceConfig(name, type, urls.getOrDefault(name, "https://" + name + ".example.com"),
                    tenants.get(name), JsonObject.EMPTY_JSON_OBJECT), true, SourceDefinition.Origin.FILE));
        }
        return started ? TestSourceRegistries.start("in-memory", types, definitions, Duration.ofSeconds(2))
                : TestSourceRegistries.notStarted("in-memory", types, definitions, Duration.ofSeconds(2));
    }

    private static Capabilities capabilitiesOf(Connector c) {
        if (c instanceof ScriptedConnector scripted) {
            return scripted.declared(); // it implements every capability it can script, but answers only those given
        }
        return new Capabilities(c instanceof MetricsCapability, c instanceof LogsCapability, c instanceof ServiceListingCapability,
                c instanceof TracesCapability, c instanceof TopologyCapability);
    }
}
