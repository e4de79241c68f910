package dev.omcp.connectors.builtin.catalog;

import dev.omcp.connectors.builtin.kubernetes.KubernetesConnectorFactory;
import dev.omcp.connectors.builtin.loki.LokiConnectorFactory;
import dev.omcp.connectors.builtin.prometheus.PrometheusConnectorFactory;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.sdk.connector.ConnectorFactory;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The builtin types {@code prometheus}, {@code loki} and {@code kubernetes}, never gated by plugin
 * verification (spec 1.4). Immutable and thread-safe.
 */
public final class BuiltinConnectorCatalog implements ConnectorCatalog {
    private final List<ConnectorType> types;

    /**
     * @param prometheusServiceLabels {@code PROMETHEUS_SERVICE_LABELS}
     * @param lokiServiceLabels {@code LOKI_SERVICE_LABELS}
     * @param labelCacheTtl how long service-label answers are cached
     * @param kubernetesWatchTimeout how long one Kubernetes watch stays open before it is renewed
     */
    public BuiltinConnectorCatalog(List<String> prometheusServiceLabels, List<String> lokiServiceLabels, Duration labelCacheTtl,
            Duration kubernetesWatchTimeout) {
        this(prometheusServiceLabels, PrometheusConnectorFactory.DEFAULT_SCRAPE_INTERVAL, lokiServiceLabels, labelCacheTtl,
                kubernetesWatchTimeout);
    }

    /**
     * @param prometheusServiceLabels {@code PROMETHEUS_SERVICE_LABELS}
     * @param prometheusScrapeInterval {@code PROMETHEUS_SCRAPE_INTERVAL}: the scrape interval of Prometheus
     *     sources that set no {@code scrapeInterval}, from 1s to 1h
     * @param lokiServiceLabels {@code LOKI_SERVICE_LABELS}
     * @param labelCacheTtl how long service-label answers are cached
     * @param kubernetesWatchTimeout how long one Kubernetes watch stays open before it is renewed
     */
    public BuiltinConnectorCatalog(List<String> prometheusServiceLabels, Duration prometheusScrapeInterval, List<String> lokiServiceLabels,
            Duration labelCacheTtl, Duration kubernetesWatchTimeout) {
        List<ConnectorFactory> factories = List.of(
                new PrometheusConnectorFactory(prometheusServiceLabels, labelCacheTtl, prometheusScrapeInterval),
                new LokiConnectorFactory(lokiServiceLabels, labelCacheTtl),
                new KubernetesConnectorFactory(kubernetesWatchTimeout));
        this.types = factories.stream()
                .map(f -> new ConnectorType(f, f.manifest(), ConnectorType.Origin.BUILTIN))
                .sorted(Comparator.comparing(ConnectorType::name))
                .toList();
    }

    /** The catalog with the documented defaults. */
    public static BuiltinConnectorCatalog withDefaults() {
        return new BuiltinConnectorCatalog(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS, LokiConnectorFactory.DEFAULT_SERVICE_LABELS,
                Duration.ofMinutes(5), Duration.ofMinutes(5));
    }

    @Override
    public Optional<ConnectorType> find(String name) {
        return types.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    @Override
    public List<ConnectorType> all() {
        return types;
    }
}
