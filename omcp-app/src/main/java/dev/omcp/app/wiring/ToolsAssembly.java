package dev.omcp.app.wiring;

import dev.omcp.adapters.http.rdap.RdapRegistrationLookup;
import dev.omcp.adapters.storage.anomaly.PrometheusRemoteWriteSink;
import dev.omcp.adapters.storage.anomaly.RemoteWriteTarget;
import dev.omcp.app.settings.AnalysisSettings;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.tools.observability.RedactionBypass;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.connectors.builtin.transport.EgressGuardedClients;
import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.core.analysis.postmortem.PostmortemTemplate;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.guidance.AgentGuide;
import dev.omcp.core.guidance.IncidentPrompts;
import dev.omcp.core.ipenrich.IpEnricher;
import dev.omcp.core.ipenrich.RdapFallback;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.core.tools.observability.ObservabilityTools;
import dev.omcp.core.tools.observability.ServiceNameSuggestions;
import dev.omcp.core.tools.observability.ServiceCatalog;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.anomaly.AnomalyScoreSink;
import dev.omcp.sdk.text.LogField;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the observability tools: the {@link Toolkit} and its parts from {@link AnalysisSettings}
 * (service catalog, redaction switch, anomaly history with the remote-write sink, IP enrichment
 * with the RDAP fallback, post-mortem template), the agent usage guide and the incident prompts;
 * and reports the governance values of {@code /api/info} they decide (spec 2.10).
 */
final class ToolsAssembly implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ToolsAssembly.class);
    static final Duration RDAP_REQUEST_TIMEOUT = Duration.ofSeconds(5);

    private final Toolkit toolkit;
    private final boolean redaction;
    private final Optional<PrometheusRemoteWriteSink> remoteWrite;

    private ToolsAssembly(Toolkit toolkit, boolean redaction, Optional<PrometheusRemoteWriteSink> remoteWrite) {
        this.toolkit = toolkit;
        this.redaction = redaction;
        this.remoteWrite = remoteWrite;
    }

    /**
     * Builds the toolkit over {@code sources} with the health thresholds the gateway starts with
     * (the sources file's block over the defaults) and starts the remote-write sink when configured.
     *
     * @throws StartRefusedException when the remote-write receiver's or the RDAP service's host
     *     resolves to an address the egress rules refuse (spec 5.9), so the start fails with the reason
     */
    static ToolsAssembly start(Settings settings, SourceRegistry sources, Clock clock, String version, HealthThresholds thresholds,
            AccessPolicy policy) {
        AnalysisSettings analysis = settings.analysis();
        EgressRules egress = settings.connectors().egressRules();
        ServiceCatalog catalog = catalog(analysis.catalog());
        if (!analysis.redaction()) {
            LOG.warn("event=redaction-disabled setting=OMCP_REDACTION effect=\"query_logs output is NOT redacted: emails, addresses, "
                    + "tokens and keys in logs reach agents as they are\"");
        }
        Optional<URI> rdapBase = analysis.rdap();
        rdapBase.ifPresent(base -> OutboundHosts.check("OMCP_IP_ENRICH_RDAP", base, egress));
        analysis.remoteWrite().ifPresent(rw -> OutboundHosts.check("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", rw.url(), egress));
        Optional<PrometheusRemoteWriteSink> sink = analysis.remoteWrite()
                .map(rw -> remoteWrite(rw, egress, settings.connectors().connectTimeout(), clock, version));
        AnomalyHistory history = new AnomalyHistory(clock, HistoryLimits.defaults(), sink.map(s -> (AnomalyScoreSink) s));
        Optional<RdapFallback> rdap = rdapBase.map(base -> {
            HttpClient client = EgressGuardedClients.create(egress, settings.connectors().connectTimeout(), RDAP_REQUEST_TIMEOUT);
            LOG.info("event=rdap-fallback service={}", origin(base));
            return new RdapFallback(new RdapRegistrationLookup(client, base, RDAP_REQUEST_TIMEOUT, clock), clock, RdapFallback.Settings.defaults());
        });
        analysis.ipDataset().ifPresent(d -> LOG.info("event=ip-dataset-loaded path={} summary=\"{}\"", d.path(), LogField.of(d.summary())));
        IpEnricher enricher = new IpEnricher(analysis.ipDataset().map(AnalysisSettings.IpDatasetFile::dataset), rdap,
                settings.connectors().nat64Prefixes());
        Supplier<Optional<PostmortemTemplate>> template = analysis.postmortemTemplate()
                .<Supplier<Optional<PostmortemTemplate>>>map(PostmortemTemplateFile::new)
                .orElse(Optional::empty);
        Toolkit toolkit = Toolkit.builder(sources, clock)
                .timeouts(settings.tools().perSourceTimeout(), settings.tools().deadline())
                .catalog(catalog)
                .history(history)
                .redaction(analysis.redaction())
                .redactionBypass(RedactionBypass.of(settings.agent().apiKeys().stream().filter(Settings.ApiKeyEntry::bypassRedaction)
                        .map(Settings.ApiKeyEntry::name).collect(java.util.stream.Collectors.toSet()), policy))
                .ipEnricher(enricher)
                .postmortemTemplate(template)
                .thresholds(thresholds)
                .howToAddSources("An operator adds them with a sources file (CONFIG_PATH), PROMETHEUS_URL / LOKI_URL, "
                        + "or POST /api/sources.")
                .build();
        // read once now, so a broken template is in the start-up log rather than first seen at an incident
        template.get();
        return new ToolsAssembly(toolkit, analysis.redaction(), sink);
    }

    private static ServiceCatalog catalog(AnalysisSettings.CatalogFile file) {
        switch (file) {
            case AnalysisSettings.CatalogFile.NotSet n -> { }
            case AnalysisSettings.CatalogFile.Missing missing ->
                    // spec 2.11: a missing file means an empty catalog; said once, here
                    LOG.warn("event=service-catalog-missing path={} effect=\"tool results carry no .catalog\"", missing.path());
            case AnalysisSettings.CatalogFile.Loaded loaded ->
                    LOG.info("event=service-catalog-loaded path={} services={}", loaded.path(), loaded.catalog().size());
        }
        return file.catalogOrEmpty();
    }

    private static PrometheusRemoteWriteSink remoteWrite(AnalysisSettings.RemoteWrite settings, EgressRules egress, Duration connectTimeout,
            Clock clock, String version) {
        RemoteWriteTarget target = switch (settings.credentials()) {
            case AnalysisSettings.Credentials.None n -> RemoteWriteTarget.of(settings.url());
            case AnalysisSettings.Credentials.Bearer b -> RemoteWriteTarget.withBearerToken(settings.url(), b.token());
            case AnalysisSettings.Credentials.Basic b -> RemoteWriteTarget.withBasicAuth(settings.url(), b.username(), b.password());
        };
        if (target.authorization().isPresent() && "http".equalsIgnoreCase(settings.url().getScheme()) && !isLoopback(settings.url(), egress)) {
            LOG.warn("event=remote-write-plaintext-credentials receiver={} note=\"credentials travel unencrypted; use https\"",
                    target.displayName());
        }
        PrometheusRemoteWriteSink.Settings queueing = PrometheusRemoteWriteSink.Settings.defaults();
        HttpClient client = EgressGuardedClients.create(egress, connectTimeout, queueing.requestTimeout());
        return PrometheusRemoteWriteSink.start(client, target, settings.externalLabels(), queueing, clock, "omcp/" + version);
    }

    /** Whether the URL names loopback ({@code localhost} or a loopback literal), judged without resolving anything. */
    private static boolean isLoopback(URI url, EgressRules egress) {
        String host = url.getHost();
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        return egress.literalAddress(host).map(bytes -> {
            try {
                return InetAddress.getByAddress(bytes).isLoopbackAddress();
            } catch (UnknownHostException e) {
                return false;
            }
        }).orElse(false);
    }

    private static String origin(URI url) {
        return url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost() + (url.getPort() >= 0 ? ":" + url.getPort() : "");
    }

    /** Adds the tools, the usage guide and the incident prompts to the gateway. */
    void register(Gateway.Builder builder) {
        builder.tools(ObservabilityTools.all(toolkit)).resources(AgentGuide.builtin());
        ServiceNameSuggestions serviceNames = new ServiceNameSuggestions(toolkit);
        IncidentPrompts.all(serviceNames::matching).forEach(builder::prompt);
    }

    Toolkit toolkit() {
        return toolkit;
    }

    /**
     * spec 2.10 {@code catalogConfigured}: {@code OMCP_SERVICE_CATALOG_FILE} is set and the file was read, even when it
     * lists no service yet; a missing file is not (it was not read, and the start-up log says so).
     */
    boolean catalogConfigured() {
        return toolkit.catalog().configured();
    }

    /** spec 2.10 {@code redaction}: {@code query_logs} output is redacted ({@code OMCP_REDACTION} is not off). */
    boolean redaction() {
        return redaction;
    }

    /**
     * spec 2.10 {@code anomalyHistoryActive}: {@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE} is set and its
     * sender is running (false after shutdown began). The governance block lists opt-in layers, and
     * the in-memory history is always on, so it does not count. Whether the receiver currently
     * accepts the scores is the sink's log's to say.
     */
    boolean anomalyHistoryActive() {
        return remoteWrite.map(PrometheusRemoteWriteSink::running).orElse(false);
    }

    /** Flushes the remote-write sink (bounded by its shutdown grace). */
    @Override
    public void close() {
        remoteWrite.ifPresent(PrometheusRemoteWriteSink::close);
    }
}
