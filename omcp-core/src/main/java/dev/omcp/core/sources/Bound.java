package dev.omcp.core.sources;

import dev.omcp.sdk.connector.Connector;
import java.util.Objects;

/**
 * A connector that serves capability {@code C}, with the source it belongs to. Tools fan out over a
 * list of these on virtual threads; see {@link FanOut}.
 *
 * @param source the source name (safe to show agents; the URL never is)
 * @param type the connector type
 * @param tenant the source's tenant binding, or empty string
 * @param capability the connector, seen as the capability
 * @param connector the same connector, for its health
 * @param <C> the capability interface
 */
public record Bound<C>(String source, String type, String tenant, C capability, Connector connector) {
    public Bound {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(capability, "capability");
        Objects.requireNonNull(connector, "connector");
    }
}
