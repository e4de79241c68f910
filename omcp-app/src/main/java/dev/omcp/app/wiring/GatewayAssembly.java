package dev.omcp.app.wiring;

import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.audit.AuditTrail;
import dev.omcp.ports.info.Governance;
import dev.omcp.testkit.conformance.ConformanceFixture;
import java.security.SecureRandom;
import java.time.Clock;
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
    private final List<AutoCloseable> resources;

    private GatewayAssembly(Gateway gateway, GatewayHttpServer server, List<AutoCloseable> resources) {
        this.gateway = gateway;
        this.server = server;
        this.resources = List.copyOf(resources);
    }

    /** Launch options that are not settings: test-only switches of the command line. */
    public record Options(boolean conformanceFixture) {
        public static Options none() {
            return new Options(false);
        }
    }

    /** Builds and starts the gateway. */
    public static GatewayAssembly start(Settings settings, Options options, String version) {
        return start(settings, options, version, Clock.systemUTC());
    }

    /** Builds and starts the gateway with the clock every time rule reads (tests pass a manual one). */
    public static GatewayAssembly start(Settings settings, Options options, String version, Clock clock) {
        return start(settings, options, version, clock, new LogAuditTrail());
    }

    /**
     * Builds and starts the gateway with the clock every time rule reads and the trail that
     * receives one event per mutating management request (tests pass a recording one).
     */
    public static GatewayAssembly start(Settings settings, Options options, String version, Clock clock, AuditTrail auditTrail) {
        SecureRandom random = new SecureRandom();
        ManagementAccessAssembly.Built access =
                ManagementAccessAssembly.build(settings.access(), clock, random, auditTrail);
        Gateway.Builder builder = Gateway.builder()
                .version(version)
                .instructions(INSTRUCTIONS)
                .clock(clock)
                .random(random)
                .accessPolicy(access.policy())
                .governance(() -> new Governance(access.authMode(), access.secretEphemeral(), false, false, false,
                        access.trustProxy(), null, false, 0))
                .apiKeys(apiKeys(settings));
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
        GatewayHttpServer.Builder httpBuilder = GatewayHttpServer.builder()
                .settings(http)
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .apiGuard(access.guard())
                .managementIdentity(access.guard())
                .securityHeaders(access.headers());
        access.modules().forEach(httpBuilder::module);
        GatewayHttpServer httpServer;
        try {
            httpServer = httpBuilder.build().start();
        } catch (RuntimeException e) {
            ManagementAccessAssembly.closeAll(access.closeables());
            throw e;
        }
        return new GatewayAssembly(gateway, httpServer, access.closeables());
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
        ManagementAccessAssembly.closeAll(resources);
    }
}
