package dev.omcp.sdk.connector;

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
     * guard when the host name is resolved. Connectors must use it for every backend call.
     */
    HttpClient httpClient();

    /** How long one backend request may take before it counts as {@link ConnectorException.Kind#TIMEOUT}. */
    Duration requestTimeout();

    /** The gateway's clock; connectors read time only from it. */
    Clock clock();
}
