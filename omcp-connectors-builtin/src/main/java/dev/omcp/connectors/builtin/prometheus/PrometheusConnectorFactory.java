package dev.omcp.connectors.builtin.prometheus;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.connectors.builtin.backend.QueryText;
import dev.omcp.connectors.builtin.backend.SourceSettings;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The builtin {@code prometheus} connector type.
 *
 * <p>Source settings besides {@code auth}, {@code tls} and {@code headers}: {@code serviceLabels}
 * (overrides {@code PROMETHEUS_SERVICE_LABELS}) and {@code metrics} (curated name to PromQL
 * template, spec 2.17).
 */
public final class PrometheusConnectorFactory implements ConnectorFactory {
    /** The default of {@code PROMETHEUS_SERVICE_LABELS}. */
    public static final List<String> DEFAULT_SERVICE_LABELS = List.of("job", "service", "app", "service_name");

    private final List<String> serviceLabels;
    private final Duration labelCacheTtl;
    private final ConnectorManifest manifest;

    /**
     * @param serviceLabels {@code PROMETHEUS_SERVICE_LABELS}: label candidates, first match wins
     * @param labelCacheTtl how long label values (and so service-to-label answers) are cached
     */
    public PrometheusConnectorFactory(List<String> serviceLabels, Duration labelCacheTtl) {
        this.serviceLabels = List.copyOf(serviceLabels);
        this.labelCacheTtl = labelCacheTtl;
        this.manifest = new ConnectorManifest(1, "prometheus", "Prometheus", "1.0.0",
                "Metrics from Prometheus and Prometheus-compatible servers (Thanos, Mimir, VictoriaMetrics).",
                List.of("metrics"), new Capabilities(true, false, true, false, false), configSchema(),
                Optional.of(">=0.1.0"), Optional.empty(), List.of(), Optional.empty(), Optional.of("Apache-2.0"));
    }

    @Override
    public ConnectorManifest manifest() {
        return manifest;
    }

    @Override
    public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
        try {
            if (source.url().isBlank()) {
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "a prometheus source needs a url");
            }
            List<String> labels = SourceSettings.labelList(source.settings(), "serviceLabels", serviceLabels);
            QueryText.labelNames(labels, "service label");
            Map<String, String> overrides = SourceSettings.stringMap(source.settings(), "metrics");
            for (Map.Entry<String, String> e : overrides.entrySet()) {
                if (!e.getKey().matches("[a-z][a-z0-9_]{0,63}") || e.getValue().isBlank()) {
                    throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "metrics." + e.getKey()
                            + " must be a lower-case name mapped to a PromQL template");
                }
            }
            return CompletableFuture.completedFuture(new PrometheusConnector(source, context.httpClient(), context.requestTimeout(),
                    context.clock(), labels, overrides, labelCacheTtl));
        } catch (ConnectorException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static JsonObject configSchema() {
        return Jsonp.object()
                .add("$schema", "https://json-schema.org/draft/2020-12/schema")
                .add("type", "object")
                .add("properties", Jsonp.object()
                        .add("serviceLabels", Jsonp.object().add("type", "array")
                                .add("items", Jsonp.object().add("type", "string")))
                        .add("metrics", Jsonp.object().add("type", "object")
                                .add("additionalProperties", Jsonp.object().add("type", "string"))))
                .build();
    }
}
