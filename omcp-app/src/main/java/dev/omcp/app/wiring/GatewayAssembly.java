package dev.omcp.app.wiring;

import dev.omcp.adapters.http.connectors.ConnectorRoutes;
import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.testkit.conformance.ConformanceFixture;
import java.util.List;

/**
 * The composition root: turns {@link Settings} into a running gateway. Everything is built here
 * with constructors and {@link Gateway#builder()}; nothing else wires components.
 */
public final class GatewayAssembly implements AutoCloseable {
    /** Short guide for models, sent in every {@code initialize} result. */
    static final String INSTRUCTIONS = "OMCP is an observability gateway. Start with list_sources and list_services, "
            + "then narrow down with query_metrics, query_logs and get_service_health; use server-side filters and "
            + "aggregations instead of fetching raw data.";

    private final Gateway gateway;
    private final GatewayHttpServer server;
    private final PluginWiring plugins;

    private GatewayAssembly(Gateway gateway, GatewayHttpServer server, PluginWiring plugins) {
        this.gateway = gateway;
        this.server = server;
        this.plugins = plugins;
    }

    /** Launch options that are not settings: test-only switches of the command line. */
    public record Options(boolean conformanceFixture) {
        public static Options none() {
            return new Options(false);
        }
    }

    /** Builds and starts the gateway. */
    public static GatewayAssembly start(Settings settings, Options options, String version) {
        // spec 3.5: in strict mode an unverifiable plugin stops the start here, before anything listens.
        PluginWiring plugins = PluginWiring.start(settings.plugins(), builtinConnectors(), version);
        Gateway.Builder builder = Gateway.builder()
                .version(version)
                .instructions(INSTRUCTIONS)
                .apiKeys(apiKeys(settings))
                .hooks(plugins.hooks())
                .hookModeOverride(plugins.hookMode());
        if (options.conformanceFixture()) {
            builder.tools(ConformanceFixture.tools()).resources(ConformanceFixture.resources());
            ConformanceFixture.prompts().forEach(builder::prompt);
        }
        Gateway gateway = builder.build();
        Settings.Server server = settings.server();
        HttpServerSettings http = new HttpServerSettings(
                server.host(), server.port(), server.allowedHosts(), server.allowedOrigins(),
                HttpServerSettings.DEFAULT_MAX_BODY_BYTES,
                java.time.Duration.ofSeconds(30), java.time.Duration.ofSeconds(90),
                server.shutdownGrace(), version);
        GatewayHttpServer httpServer = GatewayHttpServer.builder()
                .settings(http)
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .module(new ConnectorRoutes(plugins.management()))
                .build()
                .start();
        return new GatewayAssembly(gateway, httpServer, plugins);
    }

    /**
     * The builtin connector factories (spec 1.4: always loaded, never gated by verification). The
     * Prometheus, Loki and Kubernetes connectors register here.
     */
    public static List<ConnectorFactory> builtinConnectors() {
        return List.of();
    }

    /** The names of the builtin connectors: a plugin of such a name would never load. */
    public static java.util.Set<String> builtinConnectorNames() {
        return builtinConnectors().stream().map(factory -> factory.manifest().name()).collect(java.util.stream.Collectors.toSet());
    }

    /** The connector types sources are served with: builtins, then verified and pinned plugins. */
    public ConnectorCatalog connectorCatalog() {
        return plugins.connectorCatalog();
    }

    private static List<ApiKey> apiKeys(Settings settings) {
        return settings.agent().apiKeys().stream().map(entry -> ApiKey.of(entry.name(), entry.token(), "")).toList();
    }

    public int port() {
        return server.port();
    }

    public Gateway gateway() {
        return gateway;
    }

    /** Graceful shutdown: not ready, finish in-flight requests, stop. */
    @Override
    public void close() {
        server.shutdown();
    }
}
