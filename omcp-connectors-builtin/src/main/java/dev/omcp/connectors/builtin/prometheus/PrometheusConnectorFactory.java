package dev.omcp.connectors.builtin.prometheus;

import dev.omcp.connectors.builtin.backend.BuiltinManifest;
import dev.omcp.connectors.builtin.backend.QueryText;
import dev.omcp.connectors.builtin.backend.ServiceLabelConnectorFactory;
import dev.omcp.connectors.builtin.backend.SourceSettings;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The builtin {@code prometheus} connector type.
 *
 * <p>Source settings besides {@code auth}, {@code tls} and {@code headers}: {@code serviceLabels}
 * (overrides {@code PROMETHEUS_SERVICE_LABELS}), {@code metrics} (curated name to PromQL
 * template, spec 2.17) and {@code scrapeInterval} (how often the source's targets are scraped, which
 * sets the shortest rate window; overrides {@code PROMETHEUS_SCRAPE_INTERVAL}, default 15s).
 */
public final class PrometheusConnectorFactory extends ServiceLabelConnectorFactory {
    /** The default of {@code PROMETHEUS_SERVICE_LABELS}. */
    public static final List<String> DEFAULT_SERVICE_LABELS = List.of("job", "service", "app", "service_name");
    /** The source setting that says how often its targets are scraped. */
    static final String SCRAPE_INTERVAL = "scrapeInterval";
    /** The common scrape interval (Grafana's default too); it keeps the rate window the connector always had: at least 1m. */
    public static final Duration DEFAULT_SCRAPE_INTERVAL = Duration.ofSeconds(15);
    /** The shortest scrape interval a source may give. */
    static final Duration MIN_SCRAPE_INTERVAL = Duration.ofSeconds(1);
    /** Longer than any workable scrape interval: Prometheus marks a series stale 5 minutes after its last sample. */
    static final Duration MAX_SCRAPE_INTERVAL = Duration.ofHours(1);

    /** What {@link #scrapeInterval(String)} accepts, in words. */
    public static final String SCRAPE_INTERVAL_FORM = SourceSettings.durationForm(MIN_SCRAPE_INTERVAL, MAX_SCRAPE_INTERVAL);

    private static final ConnectorManifest MANIFEST = BuiltinManifest.of("prometheus", "Prometheus",
            "Metrics from Prometheus and Prometheus-compatible servers (Thanos, Mimir, VictoriaMetrics).", "metrics",
            new Capabilities(true, false, true, false, false),
            Jsonp.object()
                    .add(SERVICE_LABELS, SERVICE_LABELS_SCHEMA)
                    .add("metrics", Jsonp.object().add("type", "object")
                            .add("additionalProperties", Jsonp.object().add("type", "string")))
                    .add(SCRAPE_INTERVAL, Jsonp.object().add("type", "string")));

    private final Duration defaultScrapeInterval;

    /**
     * @param serviceLabels {@code PROMETHEUS_SERVICE_LABELS}: label candidates, first match wins
     * @param labelCacheTtl how long label values (and so service-to-label answers) are cached
     */
    public PrometheusConnectorFactory(List<String> serviceLabels, Duration labelCacheTtl) {
        this(serviceLabels, labelCacheTtl, DEFAULT_SCRAPE_INTERVAL);
    }

    /**
     * @param serviceLabels {@code PROMETHEUS_SERVICE_LABELS}: label candidates, first match wins
     * @param labelCacheTtl how long label values (and so service-to-label answers) are cached
     * @param defaultScrapeInterval {@code PROMETHEUS_SCRAPE_INTERVAL}: the scrape interval of sources
     *     that set no {@code scrapeInterval}, sources from {@code PROMETHEUS_URL} among them
     * @throws IllegalArgumentException when it is no scrape interval a source could set
     */
    public PrometheusConnectorFactory(List<String> serviceLabels, Duration labelCacheTtl, Duration defaultScrapeInterval) {
        super(MANIFEST, serviceLabels, labelCacheTtl);
        if (defaultScrapeInterval.compareTo(MIN_SCRAPE_INTERVAL) < 0 || defaultScrapeInterval.compareTo(MAX_SCRAPE_INTERVAL) > 0) {
            throw new IllegalArgumentException("the default scrape interval must be " + SCRAPE_INTERVAL_FORM + ", got "
                    + defaultScrapeInterval);
        }
        this.defaultScrapeInterval = defaultScrapeInterval;
    }

    /**
     * A scrape interval as an operator writes one outside a source entry ({@code PROMETHEUS_SCRAPE_INTERVAL}),
     * by the rule of the {@code scrapeInterval} setting; empty when it breaks the rule ({@link #SCRAPE_INTERVAL_FORM} says it).
     */
    public static Optional<Duration> scrapeInterval(String text) {
        return SourceSettings.duration(text, MIN_SCRAPE_INTERVAL, MAX_SCRAPE_INTERVAL);
    }

    /** The scrape interval of sources that set none. */
    public Duration defaultScrapeInterval() {
        return defaultScrapeInterval;
    }

    /**
     * OpenTelemetry-style names ({@code service.name}) too: Prometheus 3 stores resource attributes
     * promoted to labels as they are, and the connector writes such a name quoted in PromQL and
     * escaped in the label-values API's path.
     */
    @Override
    protected String serviceLabelName(String name, String what) throws ConnectorException {
        return QueryText.metricLabelName(name, what);
    }

    @Override
    protected Connector connector(SourceConfig source, ConnectorContext context, List<String> serviceLabels) throws ConnectorException {
        Map<String, String> overrides = SourceSettings.stringMap(source.settings(), "metrics");
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            if (!e.getKey().matches("[a-z][a-z0-9_]{0,63}") || e.getValue().isBlank()) {
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "metrics." + e.getKey()
                        + " must be a lower-case name mapped to a PromQL template");
            }
        }
        Duration scrapeInterval = SourceSettings.duration(source.settings(), SCRAPE_INTERVAL, defaultScrapeInterval,
                MIN_SCRAPE_INTERVAL, MAX_SCRAPE_INTERVAL);
        return new PrometheusConnector(source, context.httpClient(), context.requestTimeout(), context.clock(), context.answerBudget(),
                serviceLabels, overrides, labelCacheTtl(), scrapeInterval);
    }
}
