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
 * @param activity where {@link FanOut} records how each call to the source ended
 * @param <C> the capability interface
 */
public record Bound<C>(String source, String type, String tenant, C capability, Connector connector, SourceActivity activity) {
    /** A connector whose calls are recorded nowhere (tests, connectors wrapped outside a registry). */
    public Bound(String source, String type, String tenant, C capability, Connector connector) {
        this(source, type, tenant, capability, connector, SourceActivity.discarding());
    }

    public Bound {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(capability, "capability");
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(activity, "activity");
    }
}
