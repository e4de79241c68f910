package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import dev.omcp.ports.audit.AuditRecord;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 sink against a real S3-compatible server: s3rver (npm, pinned in test-backends/s3rver),
 * started on a free loopback port. s3rver 3.7.1 parses the SigV4 Authorization header and checks
 * the access key id, but does not recompute V4 signatures; the signature itself is checked against
 * AWS's published vectors in {@link SigV4SignerTest}.
 */
@Tag("backend")
class S3AuditSinkIT {
    private static final Path S3RVER = Path.of("..", "test-backends", "s3rver", "node_modules", ".bin", "s3rver");
    private static final String BUCKET = "omcp-audit-test";
    private static final String ACCESS_KEY = "S3RVER";
    private static final String SECRET = "S3RVER";
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

    private static Process server;
    private static URI endpoint;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @BeforeAll
    static void startS3rver(@TempDir Path data) throws Exception {
        if (!Files.isExecutable(S3RVER)) {
            throw new AssertionError("s3rver is not installed at " + S3RVER.toAbsolutePath().normalize()
                    + "; run: (cd test-backends/s3rver && npm ci) — backend tests need it");
        }
        server = new ProcessBuilder(S3RVER.toString(), "-d", data.toString(), "-a", "127.0.0.1", "-p", "0",
                "--configure-bucket", BUCKET)
                .redirectErrorStream(true)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String line;
        while ((line = out.readLine()) != null) {
            Matcher matcher = listening.matcher(line);
            if (matcher.find()) {
                endpoint = URI.create("http://127.0.0.1:" + matcher.group(1));
                break;
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        if (endpoint == null) {
            server.destroyForcibly();
            throw new AssertionError("s3rver did not report its port");
        }
        // keep draining its output so it never blocks on a full pipe
        Thread.ofVirtual().start(() -> {
            try {
                while (out.readLine() != null) {
                    // discard
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }

    @AfterAll
    static void stopS3rver() throws InterruptedException {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(5, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private BatchingAuditSink sink(String bucket, String prefix, String accessKey, Path deadLetter, int batch) {
        S3Delivery.Target target = new S3Delivery.Target(endpoint, bucket, prefix, "us-east-1", accessKey, SECRET);
        return new BatchingAuditSink("s3", new S3Delivery(CLIENT, target, Clock.systemUTC(), Duration.ofSeconds(10)),
                new BatchingAuditSink.Settings(1000, new BatchWindow(batch, Duration.ofMillis(300)),
                        new RetryPolicy(2, Duration.ofMillis(50), Duration.ofMillis(100)), Duration.ofSeconds(5)),
                new DeadLetterFile(Optional.of(deadLetter), Clock.systemUTC()), Clock.systemUTC(), new SplittableRandom(5),
                Thread::sleep);
    }

    /** A signed GET, with the same signer the sink uses. */
    private static HttpResponse<byte[]> get(String path, Map<String, String> query) throws Exception {
        SigV4Signer signer = new SigV4Signer(ACCESS_KEY, SECRET, "us-east-1", "s3");
        String payloadHash = SigV4Signer.sha256Hex(new byte[0]);
        Instant now = Instant.now();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("host", S3Delivery.hostHeader(endpoint));
        headers.put("x-amz-content-sha256", payloadHash);
        headers.put("x-amz-date", SigV4Signer.amzDate(now));
        String canonicalQuery = SigV4Signer.canonicalQuery(query);
        SigV4Signer.Signature signature = signer.sign("GET", path, canonicalQuery, headers, payloadHash, now);
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + path + (query.isEmpty() ? "" : "?" + canonicalQuery)))
                .header("x-amz-content-sha256", payloadHash)
                .header("x-amz-date", headers.get("x-amz-date"))
                .header("Authorization", signature.authorization())
                .GET()
                .build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private static List<String> keys(String prefix) throws Exception {
        HttpResponse<byte[]> listing = get("/" + BUCKET, Map.of("list-type", "2", "prefix", prefix));
        assertThat(listing.statusCode()).as(new String(listing.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        Matcher key = Pattern.compile("<Key>([^<]+)</Key>").matcher(new String(listing.body(), StandardCharsets.UTF_8));
        List<String> keys = new ArrayList<>();
        while (key.find()) {
            keys.add(key.group(1));
        }
        return keys;
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 20 s");
            }
            Thread.sleep(20);
        }
    }

    @Test
    void batchesBecomeJsonlObjectsThatReadBackByteIdentical() throws Exception {
        String prefix = "run-" + System.nanoTime() + "/";
        BatchingAuditSink sink = sink(BUCKET, prefix, ACCESS_KEY, dir.resolve("dead.jsonl"), 5);
        List<AuditRecord> records = new ArrayList<>();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int seq = 1; seq <= 12; seq++) {
            AuditRecord record = TestRecords.record(seq, T0.plusSeconds(seq), "user:ü", "update", "naïve \"x\"");
            records.add(record);
            expected.writeBytes((record.json() + "\n").getBytes(StandardCharsets.UTF_8));
        }

        records.forEach(sink::publish);
        await(() -> sink.stats().delivered() == 12);
        sink.close();

        List<String> keys = keys(prefix);
        assertThat(keys).isNotEmpty().isSorted();
        ByteArrayOutputStream stored = new ByteArrayOutputStream();
        long nextSeq = 1;
        for (String key : keys) {
            Matcher range = Pattern.compile(Pattern.quote(prefix) + "2025/01/31/(\\d{20})-(\\d{20})-[0-9a-f]{16}\\.jsonl").matcher(key);
            assertThat(range.matches()).as(key).isTrue();
            assertThat(Long.parseLong(range.group(1))).isEqualTo(nextSeq);
            nextSeq = Long.parseLong(range.group(2)) + 1;
            assertThat(Long.parseLong(range.group(2)) - Long.parseLong(range.group(1))).isLessThan(5);
            HttpResponse<byte[]> object = get("/" + BUCKET + "/" + SigV4Signer.encodePath(key), Map.of());
            assertThat(object.statusCode()).isEqualTo(200);
            stored.writeBytes(object.body());
        }
        assertThat(nextSeq).isEqualTo(13);
        assertThat(stored.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(sink.stats().deadLettered()).isZero();
    }

    @Test
    void aPrefixWithCharactersThatNeedEncoding_isStoredUnderExactlyThatKey() throws Exception {
        // space, plus, equals, brackets, star, bang, tilde, a non-ASCII letter and a percent: each encoded once
        String prefix = "run " + System.nanoTime() + "/ü+x=1(a)*!~%41/";
        BatchingAuditSink sink = sink(BUCKET, prefix, ACCESS_KEY, dir.resolve("dead.jsonl"), 2);
        AuditRecord first = TestRecords.record(1, T0, "user:a", "update", "s1");
        AuditRecord second = TestRecords.record(2, T0.plusSeconds(1), "user:a", "update", "s2");

        sink.publish(first);
        sink.publish(second);
        await(() -> sink.stats().delivered() == 2);
        sink.close();

        assertThat(keys(prefix)).containsExactly(S3Delivery.key(prefix, List.of(first, second)));
        HttpResponse<byte[]> object = get("/" + BUCKET + "/" + SigV4Signer.encodePath(S3Delivery.key(prefix, List.of(first, second))),
                Map.of());
        assertThat(new String(object.body(), StandardCharsets.UTF_8)).isEqualTo(first.json() + "\n" + second.json() + "\n");
    }

    @Test
    void anUnknownAccessKeyIsRefusedByTheServerAndTheBatchIsDeadLettered() throws Exception {
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = sink(BUCKET, "wrong-key/", "NOT-A-KEY", deadLetter, 1);
        AuditRecord record = TestRecords.record(1, T0, "user:a", "update", "s");

        sink.publish(record);
        await(() -> sink.stats().deadLettered() == 1);
        sink.close();

        var dead = new ObjectMapper().readTree(Files.readString(deadLetter));
        assertThat(dead.get("reason").asText()).startsWith("HTTP 403 InvalidAccessKeyId").doesNotContain(SECRET);
        assertThat(dead.get("attempts").asInt()).isEqualTo(1);
        assertThat(keys("wrong-key/")).isEmpty();
    }

    @Test
    void aMissingBucketIsNamedInTheDeadLetter() throws Exception {
        Path deadLetter = dir.resolve("dead.jsonl");
        BatchingAuditSink sink = sink("no-such-bucket", "p/", ACCESS_KEY, deadLetter, 1);

        sink.publish(TestRecords.record(1, T0, "user:a", "update", "s"));
        await(() -> sink.stats().deadLettered() == 1);
        sink.close();

        assertThat(new ObjectMapper().readTree(Files.readString(deadLetter)).get("reason").asText())
                .startsWith("HTTP 404 NoSuchBucket");
    }
}
