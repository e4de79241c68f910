package dev.omcp.connectors.builtin.transport;

import dev.omcp.ports.egress.EgressPolicy;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP clients for the gateway's own outbound calls that are not sources (the anomaly-score
 * remote write, the RDAP lookups of {@code enrich_ips}, the audit webhook and object-storage
 * sinks): the same guarded client connectors get,
 * so every request passes the egress rules of spec 5.9 (scheme, literal addresses in any spelling,
 * and every address a name resolves to, through the JDK resolver provider), follows no redirect,
 * uses no proxy (whatever the JVM's proxy settings), and has a connect and a request timeout. The client adds no credentials of its own; the caller
 * sets its headers.
 */
public final class EgressGuardedClients {
    private EgressGuardedClients() {}

    /**
     * A guarded client.
     *
     * @param policy the egress rules ({@code OMCP_ALLOW_PRIVATE_BACKENDS} decides private and loopback)
     * @param connectTimeout how long opening a connection may take
     * @param requestTimeout the timeout of a request that sets none itself
     */
    public static HttpClient create(EgressPolicy policy, Duration connectTimeout, Duration requestTimeout) {
        HttpClient delegate = HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                // a JVM-wide proxy (an embedding service's https.proxyHost, a ProxySelector of its own) would
                // resolve the destination itself: its addresses would never meet the egress rules, as for sources
                .proxy(HttpClient.Builder.NO_PROXY)
                .build();
        return new GuardedHttpClient(delegate, policy, requestTimeout, Optional.empty(), Map.of(), Optional.empty(),
                new StreamLimitFallback(Optional.empty(), Clock.systemUTC()));
    }
}
