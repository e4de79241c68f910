package dev.omcp.adapters.storage.audit;

import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** Builds the audit sinks the launcher configures. */
public final class AuditSinks {
    /** How long one delivery request may take. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** How long opening a connection to a receiver may take. */
    public static final Duration CONNECT_TIMEOUT = WebhookDelivery.CONNECT_TIMEOUT;

    private AuditSinks() {}

    /** Default queueing for a webhook: batches of up to 100 entries, sent at most 1 s after the first. */
    public static BatchingAuditSink.Settings webhookDefaults() {
        return new BatchingAuditSink.Settings(10_000, new BatchWindow(100, Duration.ofSeconds(1)), RetryPolicy.defaults(),
                Duration.ofSeconds(10));
    }

    /** Default queueing for object storage: objects of up to {@code maxCount} entries or {@code maxAge}. */
    public static BatchingAuditSink.Settings objectStorageDefaults(int maxCount, Duration maxAge) {
        return new BatchingAuditSink.Settings(Math.max(10_000, maxCount * 2), new BatchWindow(maxCount, maxAge),
                RetryPolicy.defaults(), Duration.ofSeconds(10));
    }

    /**
     * The webhook sink.
     *
     * @param client the HTTP client every batch is sent with; the launcher passes the gateway's
     *     egress-guarded client (spec 5.9 rules, no redirects), which this adapter cannot build itself
     * @param url where batches are posted
     * @param token bearer token, if any
     * @param deadLetter where undeliverable entries go
     */
    public static BatchingAuditSink webhook(HttpClient client, URI url, Optional<String> token, Optional<Path> deadLetter,
            BatchingAuditSink.Settings settings, Clock clock) {
        return new BatchingAuditSink("webhook", new WebhookDelivery(client, url, token, REQUEST_TIMEOUT), settings,
                new DeadLetterFile(deadLetter, clock), clock, new SecureRandom(), Thread::sleep);
    }

    /**
     * The S3-compatible object storage sink (path-style addressing, SigV4).
     *
     * @param client the HTTP client every object is sent with: the gateway's egress-guarded client,
     *     as for {@link #webhook}
     * @param endpoint scheme, host and port of the service
     */
    public static BatchingAuditSink objectStorage(HttpClient client, URI endpoint, String bucket, String prefix, String region,
            String accessKeyId, String secretAccessKey, Optional<Path> deadLetter, BatchingAuditSink.Settings settings,
            Clock clock) {
        S3Delivery.Target target = new S3Delivery.Target(endpoint, bucket, prefix, region, accessKeyId, secretAccessKey);
        return new BatchingAuditSink("s3", new S3Delivery(client, target, clock, REQUEST_TIMEOUT), settings,
                new DeadLetterFile(deadLetter, clock), clock, new SecureRandom(), Thread::sleep);
    }
}
