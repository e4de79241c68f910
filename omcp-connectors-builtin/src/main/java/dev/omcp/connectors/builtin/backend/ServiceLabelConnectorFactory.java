package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Base of the connector types of backends that name services by label (Prometheus, Loki). Their
 * sources need a URL and a list of candidate service labels: the gateway's own
 * ({@code PROMETHEUS_SERVICE_LABELS}, {@code LOKI_SERVICE_LABELS}) unless the source's
 * {@value #SERVICE_LABELS} setting gives one. The connector is built on the caller's thread, and
 * nothing is sent to the backend before a tool asks. A source that cannot be served fails the
 * stage instead of throwing, as {@link ConnectorFactory#create} asks, so {@link #connector} only
 * reads the backend's own settings.
 */
public abstract class ServiceLabelConnectorFactory implements ConnectorFactory {
    /** The source setting that overrides the gateway's candidate service labels. */
    public static final String SERVICE_LABELS = "serviceLabels";

    /** The JSON Schema of the {@value #SERVICE_LABELS} setting, for the type's manifest. */
    public static final JsonObject SERVICE_LABELS_SCHEMA = Jsonp.object().add("type", "array")
            .add("items", Jsonp.object().add("type", "string")).build();

    private final ConnectorManifest manifest;
    private final List<String> defaultServiceLabels;
    private final Duration labelCacheTtl;

    /**
     * @param manifest the type's manifest
     * @param defaultServiceLabels the gateway's candidate service labels, first match wins
     * @param labelCacheTtl how long label values (and so service-to-label answers) are cached
     */
    protected ServiceLabelConnectorFactory(ConnectorManifest manifest, List<String> defaultServiceLabels, Duration labelCacheTtl) {
        this.manifest = manifest;
        this.defaultServiceLabels = List.copyOf(defaultServiceLabels);
        this.labelCacheTtl = labelCacheTtl;
    }

    @Override
    public final ConnectorManifest manifest() {
        return manifest;
    }

    @Override
    public final CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
        try {
            if (source.url().isBlank()) {
                // a sources file entry without url (or one whose ${VAR} is empty) ends here: say what to write, and where
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "source '" + source.name() + "' needs a url: a "
                        + manifest.name() + " source reads its backend at an http:// or https:// URL; add one to the source: "
                        + "url: http://<host>:<port> of the " + manifest.name() + " server");
            }
            List<String> serviceLabels = SourceSettings.labelList(source.settings(), SERVICE_LABELS, defaultServiceLabels,
                    this::serviceLabelName);
            // the gateway's own list is checked too: it reaches the backend's queries as a source's does
            for (String label : serviceLabels) {
                serviceLabelName(label, "service label");
            }
            return CompletableFuture.completedFuture(connector(source, context, serviceLabels));
        } catch (ConnectorException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Checks a service label name, {@code what} naming where it came from. Classic names (letters,
     * digits and '_') by default, the names every query language of these backends writes bare; a
     * backend whose queries can quote other names widens it.
     */
    protected String serviceLabelName(String name, String what) throws ConnectorException {
        return QueryText.labelName(name, what);
    }

    /** How long the connectors cache label values. */
    protected final Duration labelCacheTtl() {
        return labelCacheTtl;
    }

    /**
     * The connector of {@code source}, whose URL is set and whose candidate service labels are
     * {@code serviceLabels}.
     *
     * @throws ConnectorException when a setting of the backend's own is invalid
     */
    protected abstract Connector connector(SourceConfig source, ConnectorContext context, List<String> serviceLabels)
            throws ConnectorException;
}
