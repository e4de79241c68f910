package dev.omcp.adapters.storage.anomaly;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Sends one remote-write request and says what became of it. Follows the remote-write 0.1.0
 * rules: 2xx is written; 5xx and 429 may pass and are retried; any other status means the
 * receiver refused the data (for example 400 for an out-of-order sample), which a retry would not
 * change. The request never follows a redirect (the client is built without), and nothing logged
 * or returned names the URL.
 */
final class RemoteWriteClient {
    /** The longest part of a refusal's body kept for the log: receivers explain 4xx answers there. */
    static final int MAX_REASON_CHARS = 200;

    /** What became of one request. */
    sealed interface Outcome {}

    /** The receiver has the samples. */
    record Written() implements Outcome {}

    /** A failure that may pass (network, timeout, 5xx, 429). */
    record Retry(String reason) implements Outcome {}

    /** The receiver refused the samples; retrying would not help. */
    record Refused(String reason) implements Outcome {}

    private final HttpClient client;
    private final RemoteWriteTarget target;
    private final Duration requestTimeout;
    private final String userAgent;

    RemoteWriteClient(HttpClient client, RemoteWriteTarget target, Duration requestTimeout, String userAgent) {
        this.client = Objects.requireNonNull(client, "client");
        this.target = Objects.requireNonNull(target, "target");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.userAgent = Objects.requireNonNull(userAgent, "userAgent");
    }

    Outcome send(byte[] snappyBody) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(target.url())
                .timeout(requestTimeout)
                .header("Content-Encoding", "snappy")
                .header("Content-Type", "application/x-protobuf")
                .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                .header("User-Agent", userAgent)
                .POST(HttpRequest.BodyPublishers.ofByteArray(snappyBody));
        target.authorization().ifPresent(value -> request.header("Authorization", value));
        HttpResponse<InputStream> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            return new Retry("timed out (" + e.getClass().getSimpleName() + ")");
        } catch (IOException e) {
            // the message may name the host; the class says enough
            return new Retry(e.getClass().getSimpleName());
        }
        int status = response.statusCode();
        String excerpt = excerpt(response);
        if (status >= 200 && status < 300) {
            return new Written();
        }
        String reason = "HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt);
        if (status == 429 || status >= 500) {
            return new Retry(reason);
        }
        return new Refused(reason);
    }

    /** The start of the response body as one printable line, for the log; the rest is discarded unread. */
    private static String excerpt(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            byte[] head = in.readNBytes(MAX_REASON_CHARS * 4);
            String text = new String(head, StandardCharsets.UTF_8);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < text.length() && line.length() < MAX_REASON_CHARS; i++) {
                char c = text.charAt(i);
                line.append(Character.isISOControl(c) || c == '"' ? ' ' : c);
            }
            return line.toString().strip();
        } catch (IOException e) {
            return "";
        }
    }
}
