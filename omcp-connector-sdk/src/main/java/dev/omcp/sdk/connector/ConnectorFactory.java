package dev.omcp.sdk.connector;

import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.concurrent.CompletionStage;

/**
 * Creates connectors of one type. A plugin JAR registers its factory in
 * {@code META-INF/services/dev.omcp.sdk.connector.ConnectorFactory}; builtin connectors are
 * factories too.
 *
 * <p>{@link #create} may complete asynchronously (for example after a first list of a Kubernetes
 * watch); the loader waits for it with a timeout and reports a factory that does not complete.
 */
public interface ConnectorFactory {

    /** The manifest: name (the source {@code type}), version, capabilities, config schema. */
    ConnectorManifest manifest();

    /**
     * Creates a connector for one source.
     *
     * @return a stage completed with the connector, or completed exceptionally with a
     *     {@link ConnectorException} saying why the source cannot be served: kind
     *     {@link ConnectorException.Kind#BAD_QUERY} when the source's own settings are wrong (a missing
     *     url, a malformed option), which the management API then refuses with 400 instead of saving
     *     a failed source; any other kind when the backend could not be reached or refused, which
     *     keeps the source, failed, until it is changed or the gateway restarts
     */
    CompletionStage<Connector> create(SourceConfig source, ConnectorContext context);
}
