package dev.omcp.sdk.connector;

/**
 * A live connection to one backend source (a Prometheus server, a Loki cluster, a Kubernetes API).
 *
 * <p>A connector does the work the capability interfaces it implements promise: a metrics backend
 * implements {@link MetricsCapability}, a logs backend {@link LogsCapability}, and so on. The
 * gateway routes a tool to a connector only when the connector's manifest declares the capability
 * <em>and</em> the object implements the interface, so one connector may serve several signals.
 *
 * <p>Implementations are called concurrently from virtual threads and must be thread-safe. Every
 * backend call must have a connect and request timeout and must turn backend errors into a
 * {@link ConnectorException} that carries the backend's message, never a stack trace.
 */
public interface Connector extends AutoCloseable {

    /** The source this connector serves. */
    SourceConfig source();

    /**
     * Asks the backend whether it answers.
     *
     * @return the backend's state; never {@code null}
     */
    Health health();

    /** Releases connections, watches and threads. Called once, when the source is removed or the gateway stops. */
    @Override
    void close();
}
