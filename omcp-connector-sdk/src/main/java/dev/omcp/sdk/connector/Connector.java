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

    /**
     * Whether every call of this connector ends promptly, by throwing, when the calling thread is
     * interrupted: it waits only in ways that answer an interrupt, as
     * {@link java.net.http.HttpClient#send} does, and never loops long without checking.
     *
     * <p>The gateway runs the call of a tool that asks just one source, from a connector that says
     * {@code true}, on the tool call's own thread and ends it at its timeout by interrupting that
     * thread; that saves handing the call to another thread and back. A connector that says
     * {@code false} (the default) gets a thread of its own per call, which the gateway stops waiting
     * for at the timeout whatever the connector does. Say {@code true} only if an interrupt really
     * ends every call: a call that ignores it keeps the tool waiting past its timeout.
     *
     * @return {@code false} unless the implementation guarantees the above
     */
    default boolean interruptible() {
        return false;
    }

    /** Releases connections, watches and threads. Called once, when the source is removed or the gateway stops. */
    @Override
    void close();
}
