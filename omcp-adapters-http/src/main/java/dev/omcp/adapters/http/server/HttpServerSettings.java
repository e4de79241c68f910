package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.api.BodyDeadlines;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the HTTP adapter needs to know to listen.
 *
 * @param host address to bind, for example {@code 127.0.0.1}
 * @param port port to bind; 0 picks a free one
 * @param allowedHosts extra {@code Host} names accepted (DNS-rebinding protection)
 * @param allowedOrigins browser origins allowed to call the gateway
 * @param maxBodyBytes largest JSON body accepted, and largest WebSocket text message
 * @param wsPingInterval how often WebSocket clients are pinged; positive
 * @param wsPongTimeout how long a WebSocket may stay silent (no pong, no message) before it is closed
 *     with 1001; longer than the ping interval, so a peer is always pinged before its deadline
 * @param shutdownGrace how long in-flight requests may run after shutdown begins; zero or more
 * @param bodyReadGrace how long any request body may take to arrive, whatever its size; positive
 *     ({@link BodyDeadlines})
 * @param bodyMinBytesPerSecond the slowest average rate a body may arrive at beyond the grace; positive
 */
public record HttpServerSettings(
        String host,
        int port,
        List<String> allowedHosts,
        List<String> allowedOrigins,
        int maxBodyBytes,
        Duration wsPingInterval,
        Duration wsPongTimeout,
        Duration shutdownGrace,
        Duration bodyReadGrace,
        int bodyMinBytesPerSecond) {

    /** 1 MiB: the largest JSON body accepted anywhere. */
    public static final int DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

    public HttpServerSettings {
        Objects.requireNonNull(host, "host");
        allowedHosts = List.copyOf(allowedHosts);
        allowedOrigins = List.copyOf(allowedOrigins);
        Objects.requireNonNull(wsPingInterval, "wsPingInterval");
        Objects.requireNonNull(wsPongTimeout, "wsPongTimeout");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        if (maxBodyBytes < 1024) {
            throw new IllegalArgumentException("maxBodyBytes must be at least 1024");
        }
        if (wsPingInterval.isNegative() || wsPingInterval.isZero()) {
            throw new IllegalArgumentException("wsPingInterval must be positive, got " + wsPingInterval);
        }
        if (wsPongTimeout.compareTo(wsPingInterval) <= 0) {
            throw new IllegalArgumentException("wsPongTimeout (" + wsPongTimeout + ") must be longer than wsPingInterval ("
                    + wsPingInterval + "), or a peer could be closed before it was ever pinged");
        }
        Objects.requireNonNull(bodyReadGrace, "bodyReadGrace");
        if (bodyReadGrace.isNegative() || bodyReadGrace.isZero()) {
            throw new IllegalArgumentException("bodyReadGrace must be positive, got " + bodyReadGrace);
        }
        if (bodyMinBytesPerSecond <= 0) {
            throw new IllegalArgumentException("bodyMinBytesPerSecond must be positive, got " + bodyMinBytesPerSecond);
        }
        if (shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("shutdownGrace must not be negative, got " + shutdownGrace
                    + "; Duration.ZERO stops without waiting");
        }
    }

    /** As the canonical constructor, with the default body deadline ({@link BodyDeadlines#DEFAULT_GRACE} and rate). */
    public HttpServerSettings(String host, int port, List<String> allowedHosts, List<String> allowedOrigins, int maxBodyBytes,
            Duration wsPingInterval, Duration wsPongTimeout, Duration shutdownGrace) {
        this(host, port, allowedHosts, allowedOrigins, maxBodyBytes, wsPingInterval, wsPongTimeout, shutdownGrace,
                BodyDeadlines.DEFAULT_GRACE, BodyDeadlines.DEFAULT_MIN_BYTES_PER_SECOND);
    }

    /** These settings with another body deadline: {@code grace} plus one second per {@code minBytesPerSecond} bytes. */
    public HttpServerSettings withBodyDeadline(Duration grace, int minBytesPerSecond) {
        return new HttpServerSettings(host, port, allowedHosts, allowedOrigins, maxBodyBytes, wsPingInterval, wsPongTimeout,
                shutdownGrace, grace, minBytesPerSecond);
    }

    /** These settings with other extra {@code Host} names (the DNS-rebinding protection; see the class's parameters). */
    public HttpServerSettings withAllowedHosts(List<String> hosts) {
        return new HttpServerSettings(host, port, hosts, allowedOrigins, maxBodyBytes, wsPingInterval, wsPongTimeout,
                shutdownGrace, bodyReadGrace, bodyMinBytesPerSecond);
    }

    /** These settings with other browser origins allowed, for example {@code https://ui.example.com}. */
    public HttpServerSettings withAllowedOrigins(List<String> origins) {
        return new HttpServerSettings(host, port, allowedHosts, origins, maxBodyBytes, wsPingInterval, wsPongTimeout,
                shutdownGrace, bodyReadGrace, bodyMinBytesPerSecond);
    }

    /** Loopback on a free port with the defaults: what tests and embedders start from. */
    public static HttpServerSettings loopback(int port) {
        return listeningOn("127.0.0.1", port);
    }

    /**
     * {@code host} and {@code port} (0 picks a free one) with the defaults of {@link #loopback}: a 1 MiB
     * body limit, a WebSocket ping every 30 s and a 90 s pong timeout, a 10 s shutdown grace, the
     * default body deadline, and no extra hosts or origins (add them with {@link #withAllowedHosts}
     * and {@link #withAllowedOrigins}).
     */
    public static HttpServerSettings listeningOn(String host, int port) {
        return new HttpServerSettings(
                host, port, List.of(), List.of(), DEFAULT_MAX_BODY_BYTES,
                Duration.ofSeconds(30), Duration.ofSeconds(90), Duration.ofSeconds(10));
    }
}
