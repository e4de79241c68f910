package dev.omcp.connectors.builtin.loki;

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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The builtin {@code loki} connector type.
 *
 * <p>Source settings besides {@code auth}, {@code tls} and {@code headers} (for example
 * {@code X-Scope-OrgID}): {@code serviceLabels} (overrides {@code LOKI_SERVICE_LABELS}),
 * {@code logFormat} ({@code json} default, {@code logfmt}, or {@code none} to filter on stream
 * labels only) and {@code levelLabel} ({@code level} by default).
 */
public final class LokiConnectorFactory implements ConnectorFactory {
    /** The default of {@code LOKI_SERVICE_LABELS}. */
    public static final List<String> DEFAULT_SERVICE_LABELS = List.of("service_name", "service", "job", "app", "container");

    private final List<String> serviceLabels;
    private final Duration labelCacheTtl;
    private final ConnectorManifest manifest;

    /**
     * @param serviceLabels {@code LOKI_SERVICE_LABELS}: label candidates, first match wins
     * @param labelCacheTtl how long label values are cached
     */
    public LokiConnectorFactory(List<String> serviceLabels, Duration labelCacheTtl) {
        this.serviceLabels = List.copyOf(serviceLabels);
        this.labelCacheTtl = labelCacheTtl;
        this.manifest = new ConnectorManifest(1, "loki", "Loki", "1.0.0", "Logs from Grafana Loki, with aggregates computed by Loki.",
                List.of("logs"), new Capabilities(false, true, true, false, false), configSchema(),
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
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "a loki source needs a url");
            }
            List<String> labels = SourceSettings.labelList(source.settings(), "serviceLabels", serviceLabels);
            String format = SourceSettings.string(source.settings(), "logFormat").orElse("json");
            if (!Set.of("json", "logfmt", "none").contains(format)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "logFormat must be json, logfmt or none");
            }
            String level = QueryText.labelName(SourceSettings.string(source.settings(), "levelLabel").orElse("level"), "levelLabel");
            return CompletableFuture.completedFuture(new LokiConnector(source, context.httpClient(), context.requestTimeout(),
                    context.clock(), labels, format, level, labelCacheTtl));
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
                        .add("logFormat", Jsonp.object().add("enum", Jsonp.array().add("json").add("logfmt").add("none")))
                        .add("levelLabel", Jsonp.object().add("type", "string")))
                .build();
    }
}
