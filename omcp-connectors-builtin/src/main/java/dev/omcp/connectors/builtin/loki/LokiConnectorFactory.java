package dev.omcp.connectors.builtin.loki;

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
import java.util.Set;

/**
 * The builtin {@code loki} connector type.
 *
 * <p>Source settings besides {@code auth}, {@code tls} and {@code headers} (for example
 * {@code X-Scope-OrgID}): {@code serviceLabels} (overrides {@code LOKI_SERVICE_LABELS}),
 * {@code logFormat} ({@code json} default, {@code logfmt}, or {@code none} to filter on stream
 * labels only) and {@code levelLabel} ({@code level} by default).
 */
public final class LokiConnectorFactory extends ServiceLabelConnectorFactory {
    /** The default of {@code LOKI_SERVICE_LABELS}. */
    public static final List<String> DEFAULT_SERVICE_LABELS = List.of("service_name", "service", "job", "app", "container");

    private static final ConnectorManifest MANIFEST = BuiltinManifest.of("loki", "Loki",
            "Logs from Grafana Loki, with aggregates computed by Loki.", "logs", new Capabilities(false, true, true, false, false),
            Jsonp.object()
                    .add(SERVICE_LABELS, SERVICE_LABELS_SCHEMA)
                    .add("logFormat", Jsonp.object().add("enum", Jsonp.array().add("json").add("logfmt").add("none")))
                    .add("levelLabel", Jsonp.object().add("type", "string")));

    /**
     * @param serviceLabels {@code LOKI_SERVICE_LABELS}: label candidates, first match wins
     * @param labelCacheTtl how long label values are cached
     */
    public LokiConnectorFactory(List<String> serviceLabels, Duration labelCacheTtl) {
        super(MANIFEST, serviceLabels, labelCacheTtl);
    }

    @Override
    protected Connector connector(SourceConfig source, ConnectorContext context, List<String> serviceLabels) throws ConnectorException {
        String format = SourceSettings.string(source.settings(), "logFormat").orElse("json");
        if (!Set.of("json", "logfmt", "none").contains(format)) {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "logFormat must be json, logfmt or none");
        }
        String level = QueryText.labelName(SourceSettings.string(source.settings(), "levelLabel").orElse("level"), "levelLabel");
        return new LokiConnector(source, context.httpClient(), context.requestTimeout(), context.clock(), context.answerBudget(),
                serviceLabels, format, level,
                labelCacheTtl());
    }
}
