package dev.omcp.adapters.storage.anomaly;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where anomaly scores are written ({@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE}) and how the request
 * authenticates. {@link #toString()} and {@link #displayName()} never show credentials, the path or
 * the query, since receivers put tokens in either.
 *
 * @param url the receiver's remote-write endpoint, for example {@code http://prometheus:9090/api/v1/write}
 * @param authorization the {@code Authorization} header value, when the receiver needs one
 */
public record RemoteWriteTarget(URI url, Optional<String> authorization) {
    public RemoteWriteTarget {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(authorization, "authorization");
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
            throw new IllegalArgumentException("the remote-write URL must be http:// or https:// with a host");
        }
        if (url.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the remote-write URL must not carry credentials; use the credential settings");
        }
    }

    /** A target without credentials. */
    public static RemoteWriteTarget of(URI url) {
        return new RemoteWriteTarget(url, Optional.empty());
    }

    /** A target authenticated with {@code Authorization: Bearer <token>}. */
    public static RemoteWriteTarget withBearerToken(URI url, String token) {
        return new RemoteWriteTarget(url, Optional.of("Bearer " + token));
    }

    /** A target authenticated with HTTP basic authentication (RFC 7617, UTF-8). */
    public static RemoteWriteTarget withBasicAuth(URI url, String username, String password) {
        String pair = username + ":" + password;
        return new RemoteWriteTarget(url, Optional.of("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8))));
    }

    /** {@code scheme://host:port} for logs: enough to tell receivers apart, nothing secret. */
    public String displayName() {
        return url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost() + (url.getPort() >= 0 ? ":" + url.getPort() : "");
    }

    @Override
    public String toString() {
        return "RemoteWriteTarget[" + displayName() + ", authorization " + (authorization.isPresent() ? "set" : "none") + "]";
    }
}
