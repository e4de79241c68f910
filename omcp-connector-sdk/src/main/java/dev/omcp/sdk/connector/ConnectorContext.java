package dev.omcp.sdk.connector;

import dev.omcp.sdk.memory.AnswerBudget;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;

/**
 * What the gateway hands a factory besides the source: an HTTP client that obeys the gateway's
 * rules, a clock, and the timeouts to use.
 */
public interface ConnectorContext {

    /**
     * An HTTP client for this source: connect timeout set, redirects not followed, TLS and
     * authentication settings of the source applied, and every connection checked by the egress
     * guard when the host name is resolved. Connectors must use it for every backend call. Over
     * TLS it prefers HTTP/2, one connection per backend, and sends a request past the backend's
     * limit of concurrent streams again over HTTP/1.1 instead of failing it.
     */
    HttpClient httpClient();

    /** How long one backend request may take before it counts as {@link ConnectorException.Kind#TIMEOUT}. */
    Duration requestTimeout();

    /** The gateway's clock; connectors read time only from it. */
    Clock clock();

    /**
     * How long opening a connection may take; the client of {@link #httpClient()} already applies
     * it. Connectors that open long-lived streams (watches) use it to size their own retries.
     *
     * @return the connect timeout; 5 seconds unless the gateway says otherwise
     */
    default Duration connectTimeout() {
        return Duration.ofSeconds(5);
    }

    /**
     * The process-wide budget for backend answers in flight, shared by every source: a connector
     * that reads answers itself sends with a {@code dev.omcp.sdk.http.AnswerLease} and closes the lease once it
     * has parsed the body ({@code dev.omcp.sdk.http.BackendApi} does this for it).
     *
     * @return the gateway's budget; {@link AnswerBudget#jvmDefault()} unless the gateway says otherwise
     */
    default AnswerBudget answerBudget() {
        return AnswerBudget.jvmDefault();
    }

    /**
     * An HTTP client like {@link #httpClient()} but with TLS material the connector found itself
     * (a kubeconfig's cluster CA and client certificate, an in-cluster service account's CA). The
     * egress guard, timeouts and the no-redirect rule still apply; the source's own {@code tls}
     * settings are replaced, its authentication header is still added when the request carries
     * none.
     *
     * @param tls the CA to trust and the client certificate to present
     * @return a client for this source; connectors keep and reuse it
     * @throws ConnectorException when the material cannot be used (for example a malformed PEM);
     *     the message says which part is wrong and never repeats key material
     */
    default HttpClient httpClient(TlsMaterial tls) throws ConnectorException {
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                "this gateway cannot build HTTP clients with connector-supplied TLS material");
    }
}
