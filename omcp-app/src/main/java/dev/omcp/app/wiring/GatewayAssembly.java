package dev.omcp.app.wiring;

import dev.omcp.adapters.http.connectors.ConnectorRoutes;
import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.adapters.http.audit.AuditRoutes;
import dev.omcp.adapters.http.usage.UsageRoutes;
import dev.omcp.adapters.http.ui.UiRoutes;
import dev.omcp.adapters.storage.budget.JsonTokenUsageFile;
import dev.omcp.adapters.storage.config.YamlSourceStore;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.Variables;
import dev.omcp.sdk.text.LogField;
import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.audit.AuditChain;
import dev.omcp.core.auth.PerAddressLimits;
import dev.omcp.ports.ratelimit.AddressLimits;
import dev.omcp.adapters.http.products.ProductRoutes;
import dev.omcp.adapters.http.inspect.InspectRoutes;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.adapters.storage.products.InvalidProductsFileException;
import dev.omcp.adapters.storage.products.ProductsFile;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.products.InMemoryProductStore;
import dev.omcp.ports.products.ProductStore;
import dev.omcp.core.guidance.AgentGuide;
import dev.omcp.core.management.RuntimeSettings;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditTrail;
import dev.omcp.ports.budget.TokenUsageStore;
import dev.omcp.ports.settings.HealthThresholdsStore;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.info.Governance;
import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.testkit.conformance.ConformanceFixture;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.stream.Collectors;

/**
 * The composition root: turns {@link Settings} into a running gateway. Everything is built here
 * with constructors and {@link Gateway#builder()}; nothing else wires components.
 */
public final class GatewayAssembly implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayAssembly.class);
    private final Gateway gateway;
    private final GatewayHttpServer server;
    private final AuditChain audit;
    private final SourcesAssembly sources;
    private final ToolsAssembly tools;
    private final PluginWiring plugins;
    /** Everything started, closed newest first: the HTTP server, the tools, the sources, access control, the audit chain. */
    private final OpenedParts opened;

    private GatewayAssembly(Gateway gateway, GatewayHttpServer server, AuditChain audit, SourcesAssembly sources, ToolsAssembly tools,
            PluginWiring plugins, OpenedParts opened) {
        this.gateway = gateway;
        this.server = server;
        this.audit = audit;
        this.sources = sources;
        this.tools = tools;
        this.plugins = plugins;
        this.opened = opened;
    }

    /** Launch options that are not settings: test-only switches of the command line. */
    public record Options(boolean conformanceFixture, boolean throwawayFiles) {
        /**
         * @param conformanceFixture register the MCP conformance suite's test tools
         */
        public Options(boolean conformanceFixture) {
            this(conformanceFixture, false);
        }

        public static Options none() {
            return new Options(false);
        }

        /**
         * {@code omcp demo}: its sources file lives in a directory removed at exit, so threshold
         * changes are kept in memory and said to be ({@code persisted: false}), not written there.
         */
        public static Options demo() {
            return new Options(false, true);
        }
    }

    /** Builds and starts the gateway. */
    public static GatewayAssembly start(Settings settings, Options options, String version) {
        return start(settings, options, version, Clock.systemUTC());
    }

    /** Builds and starts the gateway with the clock every time rule reads (tests pass a manual one). */
    public static GatewayAssembly start(Settings settings, Options options, String version, Clock clock) {
        return start(settings, options, version, clock, event -> { });
    }

    /**
     * Builds and starts the gateway with the clock every time rule reads; {@code observer} receives a
     * copy of every audit event besides the hash-chained log (tests pass a recording one).
     */
    public static GatewayAssembly start(Settings settings, Options options, String version, Clock clock, AuditTrail observer) {
        // The sources file is read first: its plugins: block pins plugin versions (spec 5.8), and an
        // invalid health: thresholds: block stops the start before anything runs.
        var sourceStore = SourcesAssembly.store(settings.connectors());
        SourcesDocument document = sourceStore.load();
        HealthThresholds thresholds = startingThresholds(document);
        // spec 3.5: in strict mode an unverifiable plugin stops the start here, before anything listens.
        PluginWiring plugins = PluginWiring.start(settings.plugins(), builtinConnectors(settings), document.plugins(), version);
        AuditChain audit = AuditAssembly.start(settings.audit(), settings.connectors().egressRules(), clock);
        // a start refused from here on closes what it opened: an embedder's next start in this JVM finds the audit file free
        OpenedParts opened = new OpenedParts();
        opened.add(audit);
        try {
            return startAfterAudit(settings, options, version, clock,
                    new Started(document, thresholds, plugins, sourceStore, audit, opened), observer);
        } catch (RuntimeException e) {
            throw opened.closeAfter(e);
        }
    }

    /** What {@link #start(Settings, Options, String, Clock, AuditTrail)} read and started before the rest is built. */
    private record Started(SourcesDocument document, HealthThresholds thresholds, PluginWiring plugins, YamlSourceStore sourceStore,
            AuditChain audit, OpenedParts opened) {}

    private static GatewayAssembly startAfterAudit(Settings settings, Options options, String version, Clock clock, Started started,
            AuditTrail observer) {
        SourcesDocument document = started.document();
        PluginWiring plugins = started.plugins();
        AuditChain audit = started.audit();
        OpenedParts opened = started.opened();
        AuditTrail trail = new AuditTrail() {
            @Override
            public void record(AuditEvent event) {
                audit.record(event);
                observer.record(event);
            }

            @Override
            public Optional<String> unavailable() {
                return audit.unavailable();
            }
        };
        SecureRandom random = new SecureRandom();
        RateLimit toolRate = toolRate(settings.agent().toolRate());
        // SCIM, mounted below, governs both login paths (docs/scim.md "Deprovisioning and logins")
        DeferredProvisionedLogins provisioned = new DeferredProvisionedLogins();
        ManagementAccessAssembly.Built access = ManagementAccessAssembly.build(settings.access(), clock, random, trail, provisioned);
        opened.add(() -> ManagementAccessAssembly.closeAll(access.closeables()));
        SourcesAssembly sources = opened.add(SourcesAssembly.start(settings.connectors(), clock, plugins.connectorCatalog(),
                started.sourceStore()));
        ToolsAssembly tools = opened.add(ToolsAssembly.start(settings, sources.registry(), clock, version, started.thresholds(),
                access.policy()));
        Settings.TokenBudget budget = settings.agent().tokenBudget();
        // closed after the HTTP server (opened later, closed first): the last charges are in its final write
        TokenUsageStore usageStore = tokenUsageStore(budget, opened);
        Entitlements entitlements = ScimAssembly.entitlements(settings.scim(), clock);
        Gateway.Builder builder = Gateway.builder()
                .inspect(InspectAssembly.inspector(settings.management().inspect(), entitlements, clock, opened))
                .title("OMCP observability gateway")
                .version(version)
                .instructions(AgentGuide.INSTRUCTIONS)
                .clock(clock)
                .random(random)
                .accessPolicy(access.policy())
                .apiKeys(AgentKeys.of(settings.agent()))
                .sessionLimits(settings.agent().maxSessionsPerCredential(), settings.agent().maxSessions())
                .requestRate(toolRate, requestRateOverrides(settings))
                .hooks(plugins.hooks())
                .hookModeOverride(plugins.hookMode())
                .tokenBudget(budget.dailyTokens())
                .tokenUsageStore(usageStore)
                .productStore(productStore(settings.management()))
                .verifiedBy(ConformanceVerification.MCP_CONFORMANCE_SUITE)
                // spec 2.10: true values for what is configured, read on every request so they stay true;
                // toolRatePerMin is the default limit, null when OMCP_TOOL_RATE_PER_MIN disabled it
                .governance(() -> new Governance(access.authMode(), access.secretEphemeral(), audit.persisted(), tools.catalogConfigured(),
                        tools.redaction(), access.trustProxy(), orNull(toolRate), tools.anomalyHistoryActive(),
                        sources.registry().countServing(TracesCapability.class)));
        tools.register(builder);
        if (options.conformanceFixture()) {
            builder.tools(ConformanceFixture.tools()).resources(ConformanceFixture.resources());
            ConformanceFixture.prompts().forEach(builder::prompt);
        }
        Gateway gateway = builder.build();
        // after the build: the tools the key lists are checked against those registered by then
        AgentKeys.warn(settings.agent(), gateway.tools().snapshot().byName().keySet(), tenantOfEachSource(sources.registry()));
        AgentKeys.bypassWarnings(settings.agent(), access.policy()).forEach(LOG::warn);
        ProductWarnings.warn(settings.agent(), gateway.products().all(), gateway.tools().snapshot().byName().keySet());
        Settings.Server server = settings.server();
        HttpServerSettings http = new HttpServerSettings(
                server.host(), server.port(), server.allowedHosts(), server.allowedOrigins(),
                HttpServerSettings.DEFAULT_MAX_BODY_BYTES,
                java.time.Duration.ofSeconds(30), java.time.Duration.ofSeconds(90),
                server.shutdownGrace());
        GatewayHttpServer.Builder httpBuilder = GatewayHttpServer.builder()
                .settings(http)
                .clock(clock)
                // each initialized WebSocket holds a session: a credential may hold as many sockets as sessions
                .webSocketsPerCredential(settings.agent().maxSessionsPerCredential())
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .requestRate(gateway.requestRate())
                .products(gateway.products())
                .description(gateway.description())
                .module(new AuditRoutes(audit))
                .module(new UsageRoutes(gateway.requestRate(), gateway.tokenUsage()))
                .module(new ProductRoutes(gateway.products(), access.policy()))
                .module(new InspectRoutes(gateway.inspect()))
                .audit(audit)
                .module(sources.routes())
                .module(new ConnectorRoutes(plugins.management(sources.registry()), sources.registry(), access.policy()))
                .apiGuard(access.guard())
                .trustedProxies(access.proxies())
                .addressLimits(addressLimits(server.addressLimits(), clock))
                .managementIdentity(access.guard())
                .securityHeaders(access.headers());
        access.modules().forEach(httpBuilder::module);
        ScimAssembly.module(settings.scim(), settings.access().redisTls(), entitlements, clock, access.revocations(), provisioned::set,
                opened::add).ifPresent(httpBuilder::module);
        HealthThresholdsStore thresholdsStore = options.throwawayFiles()
                ? HealthThresholdsStore.memoryOnly("the demo's files are removed when it stops")
                : started.sourceStore().thresholds();
        ManagementApiAssembly.modules(settings, gateway, tools.toolkit(), sources.registry(), thresholdsStore, document.healthThresholds(),
                access.policy(), clock, random, audit.persisted()).forEach(httpBuilder::module);
        // the Web UI (spec 1.3) at /ui/, behind the same guard and security headers as the API it calls
        httpBuilder.module(new UiRoutes());
        GatewayHttpServer httpServer;
        try {
            httpServer = opened.add(httpBuilder.build().start());
        } catch (RuntimeException e) {
            throw listenRefusal(server.host(), server.port(), e).<RuntimeException>map(refusal -> refusal).orElse(e);
        }
        return new GatewayAssembly(gateway, httpServer, audit, sources, tools, plugins, opened);
    }

    /**
     * The limits per client address (spec 8, "IP-level limit of other endpoints"), said at start so an operator sees
     * them, and whether they are off.
     */
    private static AddressLimits addressLimits(Settings.AddressLimits settings, Clock clock) {
        LOG.info("event=address-limits apiRequestsPerMinute={} authFailuresPerMinute={} note=\"per client address (IPv4, or IPv6"
                + " /64) after OMCP_TRUST_PROXY; behind a proxy it does not trust, every client is the proxy's one address\"",
                perMinute(settings.apiRequestsPerMinute()), perMinute(settings.authFailuresPerMinute()));
        return new PerAddressLimits(settings.apiRequestsPerMinute(), settings.authFailuresPerMinute(), clock);
    }

    private static String perMinute(OptionalInt limit) {
        return limit.isPresent() ? Integer.toString(limit.getAsInt()) : "off";
    }

    /** Per source configured now, its tenant (the empty string when unbound), as an operator of every tenant sees them. */
    private static Map<String, String> tenantOfEachSource(SourceRegistry registry) {
        return registry.list(Principal.anonymous()).stream().collect(Collectors.toMap(SourceView::name, SourceView::tenant, (a, b) -> a));
    }

    /**
     * Where the token budget's usage is kept: {@code OMCP_TOKEN_BUDGET_FILE}, read now, or memory.
     *
     * @throws StartRefusedException when the file cannot be read or is not a usage file: starting
     *     empty would give every credential a fresh daily budget
     */
    private static TokenUsageStore tokenUsageStore(Settings.TokenBudget budget, OpenedParts opened) {
        if (budget.dailyTokens() == 0) {
            return TokenUsageStore.memoryOnly();
        }
        if (budget.file().isEmpty()) {
            LOG.info("event=token-budget daily-tokens={} persisted=false note=\"usage is kept in memory: a restart gives every API key"
                    + " a fresh budget; set OMCP_TOKEN_BUDGET_FILE to keep it\"", budget.dailyTokens());
            return TokenUsageStore.memoryOnly();
        }
        try {
            JsonTokenUsageFile file = opened.add(JsonTokenUsageFile.open(budget.file().get()));
            LOG.info("event=token-budget daily-tokens={} persisted=true", budget.dailyTokens());
            return file;
        } catch (IOException e) {
            throw new StartRefusedException(e.getMessage());
        }
    }

    /**
     * What the operator must change when the server cannot listen, in the variables they set: the
     * HTTP server's own message speaks to an embedder, who passes the address in code.
     */
    static Optional<StartRefusedException> listenRefusal(String host, int port, Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.nio.channels.UnresolvedAddressException) {
                return Optional.of(new StartRefusedException("cannot listen on " + host + ":" + port + ": HOST '" + host
                        + "' is neither an IP address nor a name this machine resolves; set HOST to an address of this machine "
                        + "(127.0.0.1, 0.0.0.0 or ::)"));
            }
            if (cause instanceof java.net.BindException bind) {
                String reason = String.valueOf(bind.getMessage());
                if (reason.contains("in use")) {
                    return Optional.of(new StartRefusedException("cannot listen on " + host + ":" + port + ": PORT " + port
                            + " is already in use by another process; stop it, or set PORT to a free port (0 picks one)"));
                }
                if (reason.contains("assign")) {
                    return Optional.of(new StartRefusedException("cannot listen on " + host + ":" + port + ": HOST '" + host
                            + "' is not an address of this machine; set HOST to one of its addresses (127.0.0.1, 0.0.0.0 or ::)"));
                }
                return Optional.of(new StartRefusedException("cannot listen on " + host + ":" + port + ": " + reason
                        + "; check HOST and PORT"));
            }
        }
        return Optional.empty();
    }

    /**
     * The health thresholds of the sources file's {@code health: thresholds:} block over the
     * shipped defaults.
     *
     * @throws StartRefusedException naming every violation when the block is invalid: the gateway
     *     does not start (exit 1) on thresholds the operator did not write
     */
    static HealthThresholds startingThresholds(SourcesDocument document) {
        return switch (RuntimeSettings.startingThresholds(document.healthThresholds())) {
            case HealthThresholds.Valid valid -> valid.thresholds();
            case HealthThresholds.Invalid invalid -> throw new StartRefusedException(
                    "the sources file's health: thresholds: block is invalid, fix it and start again: "
                            + String.join("; ", invalid.errors()));
        };
    }

    /**
     * The builtin connector factories (spec 1.4: always loaded, never gated by verification):
     * Prometheus, Loki and Kubernetes.
     */
    static List<ConnectorFactory> builtinConnectors(Settings settings) {
        return SourcesAssembly.builtins(settings.connectors()).all().stream().map(ConnectorType::factory).toList();
    }

    /** The names of the builtin connectors: a plugin of such a name would never load. */
    public static java.util.Set<String> builtinConnectorNames() {
        return dev.omcp.connectors.builtin.catalog.BuiltinConnectorCatalog.withDefaults().all().stream()
                .map(ConnectorType::name).collect(java.util.stream.Collectors.toSet());
    }

    /**
     * The sources file ({@code CONFIG_PATH}) as the next start reads it: what {@code omcp plugin remove}
     * checks. Read once per command: each read of a missing or broken file logs its warning again.
     */
    public static SourcesDocument sourcesFile(Settings.Connectors settings) {
        return SourcesAssembly.store(settings).load();
    }

    /** The names of the sources of {@code document} of {@code connectorType}, sorted. */
    public static List<String> sourcesOfType(SourcesDocument document, String connectorType) {
        return document.sources().stream()
                .filter(source -> source.config().type().equals(connectorType))
                .map(source -> source.name()).sorted().toList();
    }

    /** The connector types sources are served with: builtins, then verified and pinned plugins. */
    public ConnectorCatalog connectorCatalog() {
        return plugins.connectorCatalog();
    }

    /** The default request rate of {@code OMCP_TOOL_RATE_PER_MIN}; a value it could not use is warned about, never fatal (spec 8). */
    private static RateLimit toolRate(Settings.ToolRate setting) {
        setting.fallback().ifPresent(reason -> LOG.warn("event=setting-fallback name={} reason=\"{}\"",
                Variables.TOOL_RATE_PER_MIN.name(), LogField.of(reason)));
        return setting.limit();
    }

    /**
     * The request rates of single API keys, by key name, over the default ({@code OMCP_KEY_RATE_PER_MIN}, spec 8
     * "Per-credential override"); the settings reader already skipped, with a warning, what names no key.
     */
    private static Map<String, RateLimit> requestRateOverrides(Settings settings) {
        Map<String, RateLimit> overrides = new LinkedHashMap<>();
        settings.agent().ratePerMinute().forEach((key, rate) -> overrides.put(key, switch (rate) {
            case Settings.KeyRate.PerMinute perMinute -> RateLimit.of(perMinute.count());
            case Settings.KeyRate.Disabled disabled -> RateLimit.disabled();
        }));
        return overrides;
    }

    private static Integer orNull(RateLimit limit) {
        return limit.requestsPerMinute().isPresent() ? limit.requestsPerMinute().getAsInt() : null;
    }

    public int port() {
        return server.port();
    }

    public Gateway gateway() {
        return gateway;
    }

    /** The HTTP server, for tests that inspect its routes. */
    public GatewayHttpServer server() {
        return server;
    }

    /** The audit trail every management change is recorded in. */
    public AuditTrail audit() {
        return audit;
    }

    /**
     * Graceful shutdown: not ready, finish in-flight requests, stop; write the token budget's usage a last time; flush the
     * anomaly scores; then the audit sinks and file.
     * Each part is closed even when one before it failed to (the first failure is thrown afterwards).
     */
    @Override
    public void close() {
        opened.close();
    }

    /** The tools' shared state: catalog, anomaly history, thresholds, IP enrichment, post-mortem template. */
    public Toolkit toolkit() {
        return tools.toolkit();
    }

    /** The plugin hooks in force (tests register their own to watch the interceptor chain). */
    public dev.omcp.core.hooks.HookRegistry hooks() {
        return plugins.hooks();
    }

    /** The live sources, for the tools layer. */
    public dev.omcp.core.sources.SourceRegistry sources() {
        return sources.registry();
    }

    /**
     * The Products' store: {@code OMCP_PRODUCTS_FILE}, read whole now (a file with any problem refuses the start, every
     * problem listed), or memory.
     */
    private static ProductStore productStore(Settings.Management management) {
        if (management.productsFile().isEmpty()) {
            return new InMemoryProductStore();
        }
        try {
            return ProductsFile.open(management.productsFile().get());
        } catch (InvalidProductsFileException e) {
            throw new StartRefusedException(e.getMessage());
        }
    }

}
