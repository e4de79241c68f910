package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.memory.AnswerBudget;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;

/**
 * Base of the connectors whose every call is an HTTP request to their source through
 * {@link BackendHttp} (Prometheus, Loki). That is what makes them {@linkplain #interruptible()
 * interruptible}, so a connector that waits any other way must not extend this class. Closing one
 * closes the source's client.
 */
public abstract class HttpBackendConnector implements Connector {
    private final SourceConfig source;
    private final BackendHttp http;
    private final Clock clock;

    /**
     * @param source the source served
     * @param client the source's guarded client from the connector context
     * @param timeout the request timeout
     * @param clock the gateway's clock
     * @param answerBudget the process's budget for backend answers in flight, from the connector context
     * @param backend the backend's name for messages, for example {@code Prometheus}
     */
    protected HttpBackendConnector(SourceConfig source, HttpClient client, Duration timeout, Clock clock, AnswerBudget answerBudget,
            String backend) {
        this.source = source;
        this.http = new BackendHttp(client, source.url(), timeout, backend, answerBudget);
        this.clock = clock;
    }

    @Override
    public final SourceConfig source() {
        return source;
    }

    /** Every call is HTTP through {@link HttpClient#send}, which an interrupt ends. */
    @Override
    public final boolean interruptible() {
        return true;
    }

    @Override
    public final void close() {
        http.client().close();
    }

    /** The source's HTTP API. */
    protected final BackendHttp http() {
        return http;
    }

    /** The gateway's clock; connectors read time only from it. */
    protected final Clock clock() {
        return clock;
    }
}
