package dev.omcp.core.tools.observability;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;

/** A service-listing source that never answers until interrupted. */
final class HangingListing implements dev.omcp.sdk.connector.Connector,
        dev.omcp.sdk.connector.ServiceListingCapability {
    private final dev.omcp.sdk.connector.SourceConfig source;

    HangingListing(String name) {
        this.source = new dev.omcp.sdk.connector.SourceConfig(name, "hanging-listing", "https://" + name + ".example.com", "",
                JsonObject.EMPTY_JSON_OBJECT);
    }

    @Override
    public List<dev.omcp.sdk.query.ServiceInfo> listServices() throws ConnectorException {
        try {
            new java.util.concurrent.CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted");
    }

    @Override
    public dev.omcp.sdk.connector.SourceConfig source() {
        return source;
    }

    @Override
    public dev.omcp.sdk.connector.Health health() {
        return new dev.omcp.sdk.connector.Health(true, "hanging", Duration.ofMillis(1));
    }

    @Override
    public void close() {}
}
