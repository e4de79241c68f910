package dev.omcp.plugins.zipkin;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.http.BackendApi;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Creates {@link ZipkinConnector}s; registered in {@code META-INF/services}. */
public final class ZipkinConnectorFactory implements ConnectorFactory {
    /** A backend's answer is hostile input: a bigger one is refused while it arrives, not after it filled the heap. */
    static final int MAX_ANSWER_BYTES = 32 * 1024 * 1024;
    /** A Kubernetes namespace name (RFC 1123 label). */
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final ConnectorManifest MANIFEST = new ConnectorManifest(1, "zipkin", "Zipkin", "0.0.0",
            "Traces from a Zipkin server (API v2)", List.of("traces", "topology"), new Capabilities(false, false, true, true, true),
            JsonObject.EMPTY_JSON_OBJECT, Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());

    /** The gateway reads name and capabilities from the verified manifest.json; this copy names the type. */
    @Override
    public ConnectorManifest manifest() {
        return MANIFEST;
    }

    @Override
    public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
        URI base;
        try {
            base = BackendApi.baseOf("Zipkin", source.url());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.BAD_QUERY, e.getMessage()));
        }
        JsonValue setting = source.settings().getOrDefault("topologyNamespace", JsonValue.NULL);
        String namespace = setting instanceof JsonString text ? text.getString() : "";
        if (setting != JsonValue.NULL && !(setting instanceof JsonString)) {
            return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.BAD_QUERY,
                    "topologyNamespace must be a string, the Kubernetes namespace of the traced services"));
        }
        if (!namespace.isEmpty() && !NAMESPACE.matcher(namespace).matches()) {
            return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.BAD_QUERY,
                    "topologyNamespace must be a Kubernetes namespace name (lower-case letters, digits and '-', at most 63), got '"
                            + (namespace.length() > 63 ? namespace.substring(0, 63) + "..." : namespace) + "'"));
        }
        return CompletableFuture.completedFuture(new ZipkinConnector(source, new BackendApi("Zipkin", base, context, MAX_ANSWER_BYTES), context.clock(), namespace));
    }
}
