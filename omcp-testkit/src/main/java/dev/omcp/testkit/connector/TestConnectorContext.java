package dev.omcp.testkit.connector;

import dev.omcp.sdk.connector.ConnectorContext;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The context a connector gets in tests: an HTTP client with a connect timeout that follows no
 * redirects (like the gateway's), a request timeout and a clock. Unlike the gateway's client it has
 * no egress guard, so it reaches mocks on loopback.
 *
 * @param httpClient the client
 * @param requestTimeout how long one backend call may take
 * @param clock the clock
 */
public record TestConnectorContext(HttpClient httpClient, Duration requestTimeout, Clock clock) implements ConnectorContext {
    public TestConnectorContext {
        Objects.requireNonNull(httpClient, "httpClient");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(clock, "clock");
    }

    /** 2 s to connect, 5 s per request, the system clock. */
    public static TestConnectorContext defaults() {
        return withTimeout(Duration.ofSeconds(5));
    }

    /** The defaults with another request timeout. */
    public static TestConnectorContext withTimeout(Duration requestTimeout) {
        return new TestConnectorContext(HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build(), requestTimeout, Clock.systemUTC());
    }
}
