package com.acme.jaeger;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.http.BackendApi;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Creates {@link JaegerConnector}s; registered in {@code META-INF/services}. */
public final class JaegerConnectorFactory implements ConnectorFactory {
    /** A backend's answer is bounded while it arrives, as the page's rules ask. */
    static final int MAX_ANSWER_BYTES = 32 << 20;
    /** The gateway reads all but the name from the verified manifest.json; this copy names the type. */
    private static final ConnectorManifest MANIFEST =
            ConnectorManifest.named("jaeger", "Jaeger", List.of("traces"), new Capabilities(false, false, true, true, false));

    @Override
    public ConnectorManifest manifest() {
        return MANIFEST;
    }

    @Override
    public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
        URI base;
        try {
            base = BackendApi.baseOf("Jaeger", source.url());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.BAD_QUERY, e.getMessage()));
        }
        return CompletableFuture.completedFuture(new JaegerConnector(source, new BackendApi("Jaeger", base, context, MAX_ANSWER_BYTES)));
    }
}
