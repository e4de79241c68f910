package dev.omcp.adapters.storage.audit;

import dev.omcp.adapters.storage.delivery.SendFailure;
import dev.omcp.ports.audit.AuditRecord;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a batch as one JSONL object to S3-compatible storage with a path-style {@code PUT}
 * signed with SigV4. The object holds the entries exactly as the audit file does (one per line),
 * so {@code omcp audit verify --segment} checks it. The key depends only on the batch:
 * {@code <prefix><yyyy>/<MM>/<dd>/<firstSeq>-<lastSeq>-<16 hex of the last hash>.jsonl} (date of the
 * first entry, UTC; seqs zero-padded to 20 digits so keys sort in chain order), so a retry
 * overwrites the same object, but another chain's batch with the same seqs (a restart without an
 * audit file, a file moved aside) never does.
 */
final class S3Delivery implements Delivery {
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu/MM/dd/").withZone(ZoneOffset.UTC);
    private static final Pattern ERROR_CODE = Pattern.compile("<Code>([A-Za-z0-9.]{1,64})</Code>");
    /** The store's answer to a request signed more than 15 minutes off its own clock (a 403). */
    private static final String CLOCK_SKEW = "RequestTimeTooSkewed";
    private static final String CLOCK_ADVICE = ": the gateway's clock and the object store's differ by more than 15"
            + " minutes; synchronise the gateway host's clock (NTP)";
    /**
     * Error codes S3 sends with a 4xx status for a request that may succeed when sent again: the
     * store gave up reading the body (400 {@code RequestTimeout}), or the clock was off (403
     * {@code RequestTimeTooSkewed}, which NTP may correct within the retries). Any other 4xx is the
     * bucket, key or credentials, and is final.
     */
    private static final Set<String> TRANSIENT_CODES = Set.of("RequestTimeout", CLOCK_SKEW);

    /**
     * Where and as whom objects are written.
     *
     * @param endpoint scheme, host, port (and optional base path) of the service, for example {@code http://127.0.0.1:9000}
     * @param bucket the bucket
     * @param prefix put before every key, for example {@code omcp-audit/}
     * @param region the signing region
     * @param accessKeyId the access key id
     * @param secretAccessKey the secret access key
     */
    record Target(URI endpoint, String bucket, String prefix, String region, String accessKeyId, String secretAccessKey) {
        Target {
            Objects.requireNonNull(endpoint, "endpoint");
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey");
            // refused here, at start, rather than by the store at the first delivery
            S3Addressing.bucketProblem(bucket).ifPresent(problem -> {
                throw new IllegalArgumentException("the bucket " + problem);
            });
            S3Addressing.basePathProblem(endpoint).ifPresent(problem -> {
                throw new IllegalArgumentException("the endpoint " + problem);
            });
        }

        @Override
        public String toString() {
            return "Target[bucket=" + bucket + ", prefix=" + prefix + ", region=" + region + ", credentials hidden]";
        }
    }

    private final HttpClient client;
    private final Target target;
    private final SigV4Signer signer;
    private final Clock clock;
    private final Duration requestTimeout;

    S3Delivery(HttpClient client, Target target, Clock clock, Duration requestTimeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.target = Objects.requireNonNull(target, "target");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.signer = new SigV4Signer(target.accessKeyId(), target.secretAccessKey(), target.region(), "s3");
    }

    /** The object key of {@code batch}. */
    static String key(String prefix, List<AuditRecord> batch) {
        AuditRecord last = batch.get(batch.size() - 1);
        // the seqs alone repeat whenever a chain starts over at 1; the last hash tells the chains apart (as in the
        // webhook's Idempotency-Key), so an earlier chain's object, perhaps its only lasting copy, is never replaced
        return prefix + DAY.format(batch.get(0).entry().ts()) + String.format("%020d-%020d-%s.jsonl",
                batch.get(0).entry().seq(), last.entry().seq(), last.entry().hash().substring(0, 16));
    }

    /** The object body of {@code batch}: each entry's line and a line break. */
    static byte[] body(List<AuditRecord> batch) {
        StringBuilder body = new StringBuilder(batch.size() * 400);
        for (AuditRecord record : batch) {
            body.append(record.json()).append('\n');
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The path-style URI of {@code key} and the canonical path signed for it. Its authority is the
     * signed host ({@link #hostHeader}): over HTTP/2 the JDK client sends the authority as written
     * ({@code :authority}), so an endpoint written with its default port ({@code https://host:443})
     * would otherwise reach the store as {@code host:443} with a signature made for {@code host}. Its
     * path is in the form the store signs ({@link S3Addressing#canonicalBasePath}), so the path signed
     * is the path sent.
     */
    static URI objectUri(URI endpoint, String bucket, String key) {
        String base = S3Addressing.canonicalBasePath(endpoint);
        String path = base + "/" + SigV4Signer.uriEncode(bucket, false) + "/" + SigV4Signer.encodePath(key);
        return URI.create(endpoint.getScheme() + "://" + hostHeader(endpoint) + path);
    }

    /** The Host header the JDK client sends for {@code uri}: the port only when it is not the scheme's default. */
    static String hostHeader(URI uri) {
        int port = uri.getPort();
        boolean defaultPort = port == -1 || port == 80 && "http".equals(uri.getScheme()) || port == 443 && "https".equals(uri.getScheme());
        return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    }

    @Override
    public Outcome deliver(List<AuditRecord> batch) throws InterruptedException {
        String key = key(target.prefix(), batch);
        byte[] body = body(batch);
        URI uri = objectUri(target.endpoint(), target.bucket(), key);
        String payloadHash = SigV4Signer.sha256Hex(body);
        java.time.Instant now = clock.instant();
        Map<String, String> signed = new LinkedHashMap<>();
        signed.put("host", hostHeader(uri));
        signed.put("x-amz-content-sha256", payloadHash);
        signed.put("x-amz-date", SigV4Signer.amzDate(now));
        signed.put("content-type", "application/x-ndjson");
        SigV4Signer.Signature signature = signer.sign("PUT", uri.getRawPath(), "", signed, payloadHash, now);
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(requestTimeout)
                .header("x-amz-content-sha256", payloadHash)
                .header("x-amz-date", signed.get("x-amz-date"))
                .header("Content-Type", "application/x-ndjson")
                .header("Authorization", signature.authorization())
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            // held to the timeout until the answer is in full: a store trickling its answer must not stall the sink
            BoundedExchange.Answer answer = BoundedExchange.send(client, request, requestTimeout, 4096);
            String head = new String(answer.head(), StandardCharsets.UTF_8);
            int status = answer.status();
            if (status >= 200 && status < 300) {
                return new Delivered();
            }
            Matcher found = ERROR_CODE.matcher(head);
            String code = found.find() ? found.group(1) : "";
            String detail = "HTTP " + status + (code.isEmpty() ? "" : " " + code) + " for key " + key;
            if (status == 408 || status == 429 || status >= 500 || TRANSIENT_CODES.contains(code)) {
                return new Retry(code.equals(CLOCK_SKEW) ? detail + CLOCK_ADVICE : detail);
            }
            return new Permanent(detail + ": the object store refused the write; check the bucket, the credentials"
                    + " and OMCP_AUDIT_S3_REGION, then replay the dead-letter file");
        } catch (IOException e) {
            return new Retry(SendFailure.of(e) + " for key " + key);
        }
    }
}
