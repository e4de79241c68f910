package dev.omcp.plugins.tempo;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.http.BackendApi;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Creates {@link TempoConnector}s; registered in {@code META-INF/services}. */
public final class TempoConnectorFactory implements ConnectorFactory {
    /** A backend's answer is hostile input: a bigger one is refused while it arrives, not after it filled the heap. */
    static final int MAX_ANSWER_BYTES = 32 * 1024 * 1024;
    static final int DEFAULT_FETCH_CONCURRENCY = 8;
    private static final ConnectorManifest MANIFEST = new ConnectorManifest(1, "tempo", "Grafana Tempo", "0.0.0",
            "Traces from Grafana Tempo", List.of("traces"), new Capabilities(false, false, true, true, false),
            JsonObject.EMPTY_JSON_OBJECT, Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());

    @Override
    public ConnectorManifest manifest() {
        return MANIFEST;
    }

    @Override
    public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
        URI base;
        try {
            base = BackendApi.baseOf("Tempo", source.url());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.BAD_QUERY, e.getMessage()));
        }
        int concurrency = DEFAULT_FETCH_CONCURRENCY;
        JsonValue configured = source.settings().get("fetchConcurrency");
        if (configured instanceof JsonNumber number && number.isIntegral() && number.intValue() >= 1 && number.intValue() <= 32) {
            concurrency = number.intValue();
        }
        BackendApi api = new BackendApi("Tempo", base, context, MAX_ANSWER_BYTES);
        return CompletableFuture.completedFuture(new TempoConnector(source, api, context.clock(), concurrency));
    }
}
