package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.connectors.builtin.backend.TtlCache;
import dev.omcp.connectors.builtin.transport.SettingFile;
import dev.omcp.sdk.connector.ConnectorException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * How to reach one cluster: the API server's base URL, a guarded client with the cluster's TLS
 * material, and the bearer token (read again from its file every minute, as projected service
 * account tokens rotate).
 */
final class ClusterAccess {
    /** A service account token is a JWT of a few KiB; a file far larger is not one. */
    private static final int MAX_TOKEN_FILE_BYTES = 64 * 1024;
    private final String baseUrl;
    private final HttpClient client;
    private final Optional<String> token;
    private final Optional<Path> tokenFile;
    private final TtlCache<String, String> tokenCache;

    ClusterAccess(String baseUrl, HttpClient client, Optional<String> token, Optional<Path> tokenFile, Clock clock) {
        this.baseUrl = baseUrl;
        this.client = client;
        this.token = token;
        this.tokenFile = tokenFile;
        this.tokenCache = new TtlCache<>(clock, Duration.ofMinutes(1), 1);
    }

    String baseUrl() {
        return baseUrl;
    }

    HttpClient client() {
        return client;
    }

    /** The {@code Authorization} header value to add, if the cluster needs one the source does not provide. */
    Optional<String> authorization() throws ConnectorException {
        if (token.isPresent()) {
            return Optional.of("Bearer " + token.get());
        }
        if (tokenFile.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> cached = tokenCache.get("token");
        if (cached.isPresent()) {
            return Optional.of("Bearer " + cached.get());
        }
        try {
            String read = SettingFile.read(tokenFile.get(), MAX_TOKEN_FILE_BYTES, StandardCharsets.US_ASCII).strip();
            if (read.isEmpty() || read.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw new ConnectorException(ConnectorException.Kind.UNAUTHORIZED, "the service account token file is empty or malformed");
            }
            tokenCache.put("token", read);
            return Optional.of("Bearer " + read);
        } catch (SettingFile.UnusableException e) {
            throw new ConnectorException(ConnectorException.Kind.UNAUTHORIZED, "the service account token file " + e.getMessage());
        }
    }
}
