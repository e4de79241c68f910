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
 * @param use where {@link FanOut} enters and leaves each call, so the registry closes a replaced connector only after them
 * @param builtin whether the connector type is built into the gateway, whose rules its connectors keep themselves (the
 *     Prometheus connector leaves out the names only the gateway's anomaly series carry), rather than a plugin's, whose
 *     answers the core checks where it can
 * @param <C> the capability interface
 */
public record Bound<C>(String source, String type, String tenant, C capability, Connector connector, SourceActivity activity,
        ConnectorUse use, boolean builtin) {
    /** A connector whose calls are recorded nowhere (tests, connectors wrapped outside a registry), checked as a plugin's. */
    public Bound(String source, String type, String tenant, C capability, Connector connector) {
        this(source, type, tenant, capability, connector, SourceActivity.discarding());
    }

    /** A connector no registry owns, whose calls are recorded in {@code activity} (tests), checked as a plugin's. */
    public Bound(String source, String type, String tenant, C capability, Connector connector, SourceActivity activity) {
        this(source, type, tenant, capability, connector, activity, ConnectorUse.unowned(), false);
    }

    public Bound {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(capability, "capability");
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(activity, "activity");
        Objects.requireNonNull(use, "use");
    }

    /**
     * The same source and connector seen as {@code other} (a capability paired with its query), whose
     * calls are recorded and entered as this one's.
     */
    public <D> Bound<D> carrying(D other) {
        return new Bound<>(source, type, tenant, other, connector, activity, use, builtin);
    }
}
