package dev.omcp.app.settings;

import dev.omcp.adapters.storage.audit.FsyncPolicy;
import dev.omcp.adapters.storage.audit.TornTailPolicy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The audit log's settings (docs/audit.md).
 *
 * @param file the JSONL file; empty keeps a 500-entry ring in memory
 * @param fsync when the file is forced to disk
 * @param fsyncInterval the interval of {@link FsyncPolicy#BATCH}
 * @param tornTail what to do with an incomplete last line at start
 * @param webhook the webhook sink, when configured
 * @param s3 the object storage sink, when configured
 */
public record AuditSettings(Optional<Path> file, FsyncPolicy fsync, Duration fsyncInterval, TornTailPolicy tornTail,
        Optional<Webhook> webhook, Optional<S3> s3) {
    public AuditSettings {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(fsync, "fsync");
        Objects.requireNonNull(fsyncInterval, "fsyncInterval");
        Objects.requireNonNull(tornTail, "tornTail");
        Objects.requireNonNull(webhook, "webhook");
        Objects.requireNonNull(s3, "s3");
    }

    /**
     * The webhook sink.
     *
     * @param url where batches are posted (secret: it may carry credentials)
     * @param token bearer token
     * @param deadLetter where undeliverable entries go; empty logs them instead
     */
    public record Webhook(URI url, Optional<String> token, Optional<Path> deadLetter) {
        @Override
        public String toString() {
            return "Webhook[url and token hidden, deadLetter=" + deadLetter + "]";
        }
    }

    /**
     * The S3-compatible object storage sink.
     *
     * @param endpoint scheme, host and port of the service
     * @param bucket the bucket
     * @param prefix key prefix
     * @param region signing region
     * @param accessKeyId access key id
     * @param secretAccessKey secret access key
     * @param batchSize entries per object at most
     * @param flushInterval how long the first entry of an object may wait
     * @param deadLetter where undeliverable entries go; empty logs them instead
     */
    public record S3(URI endpoint, String bucket, String prefix, String region, String accessKeyId, String secretAccessKey,
            int batchSize, Duration flushInterval, Optional<Path> deadLetter) {
        @Override
        public String toString() {
            return "S3[bucket=" + bucket + ", prefix=" + prefix + ", region=" + region + ", batchSize=" + batchSize
                    + ", flushInterval=" + flushInterval + ", credentials hidden]";
        }
    }
}
