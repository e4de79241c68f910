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
     *     {@link ConnectorException} saying why the source cannot be served
     */
    CompletionStage<Connector> create(SourceConfig source, ConnectorContext context);
}
