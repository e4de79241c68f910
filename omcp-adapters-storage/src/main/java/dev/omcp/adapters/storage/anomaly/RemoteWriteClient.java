package dev.omcp.adapters.storage.anomaly;

import dev.omcp.adapters.storage.delivery.SendFailure;
import dev.omcp.sdk.text.BackendText;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;

/**
 * Sends one remote-write request and says what became of it. Follows the remote-write 0.1.0
 * rules: 2xx is written; 5xx and 429 may pass and are retried; any other status means the
 * receiver refused the data (for example 400 for an out-of-order sample), which a retry would not
 * change. The body of a success is not read, and that of a refusal only its start, within the
 * request timeout, so a receiver that stalls mid-answer holds the sender no longer than one that
 * never answers. The request never follows a redirect (the client is built without), and nothing logged
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
        long started = System.nanoTime();
        HttpResponse<String> response;
        try {
            // The request timeout covers the wait for the headers only; the body gets what is left of it.
            response = client.send(request.build(), info -> new ResponseExcerpt(
                    isSuccess(info.statusCode()) ? 0 : MAX_REASON_CHARS * 4,
                    requestTimeout.minusNanos(System.nanoTime() - started)));
        } catch (HttpTimeoutException e) {
            return new Retry("timed out (" + e.getClass().getSimpleName() + ")");
        } catch (IOException e) {
            return new Retry(SendFailure.of(e));
        }
        int status = response.statusCode();
        if (isSuccess(status)) {
            return new Written();
        }
        String excerpt = printable(response.body());
        String reason = "HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt);
        if (status == 429 || status >= 500) {
            return new Retry(reason);
        }
        return new Refused(reason);
    }

    private static boolean isSuccess(int status) {
        return status >= 200 && status < 300;
    }

    /**
     * The start of a refusal's body as one line for the log: the receiver is outside the gateway, so
     * line and paragraph separators, bidi overrides and other invisible characters go as well as
     * controls, and a URL it quotes (which may carry a token) is replaced. The sink still quotes the
     * whole reason as a log field.
     */
    private static String printable(String text) {
        return text.isBlank() ? "" : BackendText.clean(text, MAX_REASON_CHARS);
    }
}
