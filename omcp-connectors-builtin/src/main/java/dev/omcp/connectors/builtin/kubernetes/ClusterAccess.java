package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.connectors.builtin.backend.TtlCache;
import dev.omcp.connectors.builtin.transport.SettingFile;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.text.LogField;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How to reach one cluster: the API server's base URL, a guarded client with the cluster's TLS
 * material, and the credentials to send: a token file (read again every minute, as projected
 * service account tokens rotate) or a fixed {@code Authorization} value (a bearer token, basic
 * credentials).
 */
final class ClusterAccess {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterAccess.class);
    /** A service account token is a JWT of a few KiB; a file far larger is not one. */
    private static final int MAX_TOKEN_FILE_BYTES = 64 * 1024;
    private final String baseUrl;
    private final HttpClient client;
    private final Optional<String> fixedAuthorization;
    private final Optional<Path> tokenFile;
    private final TtlCache<String, String> tokenCache;
    /** The token the file last held, kept for when a later read fails: see {@link #fileToken()}. */
    private final AtomicReference<String> lastGoodToken = new AtomicReference<>();

    /**
     * @param fixedAuthorization the {@code Authorization} value to send ({@code Bearer …}, {@code Basic …}); with a
     *     {@code tokenFile} too, only while that file cannot be read (client-go: the file's token takes precedence)
     * @param tokenFile a file holding the bearer token, read again every minute
     */
    ClusterAccess(String baseUrl, HttpClient client, Optional<String> fixedAuthorization, Optional<Path> tokenFile, Clock clock) {
        this.baseUrl = baseUrl;
        this.client = client;
        this.fixedAuthorization = fixedAuthorization;
        this.tokenFile = tokenFile;
        this.tokenCache = new TtlCache<>(clock, Duration.ofMinutes(1), 1);
    }

    String baseUrl() {
        return baseUrl;
    }

    HttpClient client() {
        return client;
    }

    /**
     * A GET of {@code uri} with the cluster's credentials, over HTTP/1.1 whatever the client prefers. Over
     * HTTP/2 every request of the source would be a stream of one connection, and each watch holds its
     * stream for minutes: past the API server's limit of streams a connection may carry (100 by default,
     * 250 in older releases; {@code --http2-max-streams-per-connection}), the JDK's client fails the next
     * request ("too many concurrent streams") instead of opening another connection, as client-go does.
     * A source watching 17 namespaces (6 watches each) would then lose watches, lists and health checks.
     * Over HTTP/1.1 each open watch has a connection of its own, and lists reuse the idle ones.
     */
    HttpRequest.Builder get(URI uri) throws ConnectorException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).version(HttpClient.Version.HTTP_1_1).GET();
        authorization().ifPresent(a -> request.header("Authorization", a));
        return request;
    }

    /** The {@code Authorization} header value to add, if the cluster needs one the source does not provide. */
    Optional<String> authorization() throws ConnectorException {
        if (tokenFile.isEmpty()) {
            return fixedAuthorization;
        }
        try {
            return Optional.of("Bearer " + fileToken());
        } catch (ConnectorException e) {
            // client-go keeps the kubeconfig's token for when the file cannot be read (yet): so does this
            if (fixedAuthorization.isPresent()) {
                return fixedAuthorization;
            }
            throw e;
        }
    }

    /**
     * The file's token, read again once a minute. When a re-read fails (the kubelet swaps the projected token
     * through a symlink, a volume hiccups) the token last read is kept, as client-go does: it is usually still
     * valid for the better part of an hour, and dropping it would fail every request with 401 at once.
     */
    private String fileToken() throws ConnectorException {
        Optional<String> cached = tokenCache.get("token");
        if (cached.isPresent()) {
            return cached.get();
        }
        try {
            String read = readTokenFile();
            tokenCache.put("token", read);
            lastGoodToken.set(read);
            return read;
        } catch (ConnectorException e) {
            String last = lastGoodToken.get();
            if (last == null) {
                throw e;
            }
            LOG.warn("Kubernetes token file could not be read again (\"{}\"); the token read before is still used",
                    LogField.of(e.getMessage()));
            // retried after the usual minute, not on every request
            tokenCache.put("token", last);
            return last;
        }
    }

    private String readTokenFile() throws ConnectorException {
        try {
            String read = SettingFile.read(tokenFile.get(), MAX_TOKEN_FILE_BYTES, StandardCharsets.US_ASCII).strip();
            if (read.isEmpty() || read.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw new ConnectorException(ConnectorException.Kind.UNAUTHORIZED, "the token file is empty or malformed");
            }
            return read;
        } catch (SettingFile.UnusableException e) {
            throw new ConnectorException(ConnectorException.Kind.UNAUTHORIZED, "the token file " + e.getMessage());
        }
    }
}
