package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.delivery.BatchWindow;
import dev.omcp.adapters.storage.delivery.RetryPolicy;
import dev.omcp.ports.audit.AuditRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SinkPoliciesTest {

    @Test
    void retryDelaysDoubleWithJitterAndStopAtTheCap() {
        RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(1000), Duration.ofMillis(8000));
        SplittableRandom random = new SplittableRandom(42);
        long[][] bounds = {{500, 1000}, {1000, 2000}, {2000, 4000}, {4000, 8000}, {4000, 8000}, {4000, 8000}};
        for (int attempt = 2; attempt < 2 + bounds.length; attempt++) {
            for (int sample = 0; sample < 200; sample++) {
                long delay = policy.delayBefore(attempt, random).toMillis();
                assertThat(delay).as("attempt %d", attempt).isBetween(bounds[attempt - 2][0], bounds[attempt - 2][1]);
            }
        }
    }

    @Test
    void retryDelaysActuallyVary() {
        RetryPolicy policy = RetryPolicy.defaults();
        SplittableRandom random = new SplittableRandom(7);
        long distinct = java.util.stream.IntStream.range(0, 50).mapToLong(i -> policy.delayBefore(5, random).toMillis())
                .distinct().count();
        assertThat(distinct).isGreaterThan(10);
    }

    @Test
    void aHugeAttemptNumberDoesNotOverflowTheCap() {
        RetryPolicy policy = new RetryPolicy(100, Duration.ofSeconds(1), Duration.ofSeconds(60));
        assertThat(policy.delayBefore(99, new SplittableRandom(1))).isBetween(Duration.ofSeconds(30), Duration.ofSeconds(60));
    }

    @Test
    void aBatchIsDueByCountOrByAgeOnAManualClock() {
        BatchWindow window = new BatchWindow(3, Duration.ofSeconds(60));
        Instant opened = Instant.parse("2025-01-01T00:00:00Z");

        assertThat(window.full(2)).isFalse();
        assertThat(window.full(3)).isTrue();
        assertThat(window.remaining(opened, opened)).isEqualTo(Duration.ofSeconds(60));
        assertThat(window.remaining(opened, opened.plusSeconds(45))).isEqualTo(Duration.ofSeconds(15));
        assertThat(window.remaining(opened, opened.plusSeconds(60))).isZero();
        assertThat(window.remaining(opened, opened.plusSeconds(600))).isZero();
    }

    @Test
    void webhookStatusesSplitIntoSuccessRetryAndRefusal() {
        assertThat(WebhookDelivery.classify(200)).isInstanceOf(Delivery.Delivered.class);
        assertThat(WebhookDelivery.classify(204)).isInstanceOf(Delivery.Delivered.class);
        for (int retry : new int[] {408, 425, 429, 500, 502, 503, 504}) {
            assertThat(WebhookDelivery.classify(retry)).as("HTTP %d", retry).isInstanceOf(Delivery.Retry.class);
        }
        for (int refused : new int[] {301, 400, 401, 403, 404, 413, 422}) {
            assertThat(WebhookDelivery.classify(refused)).as("HTTP %d", refused).isInstanceOf(Delivery.Permanent.class);
        }
    }

    @Test
    void webhookPayloadEmbedsTheEntriesVerbatim() {
        Instant t = Instant.parse("2025-01-31T12:00:00Z");
        List<AuditRecord> batch = List.of(TestRecords.record(41, t, "user:a", "create", "x"),
                TestRecords.record(42, t, "user:b", "delete", "y"));

        String payload = WebhookDelivery.payload(batch);

        assertThat(payload).isEqualTo("{\"kind\":\"omcp.audit.batch\",\"version\":1,\"count\":2,\"firstSeq\":41,"
                + "\"lastSeq\":42,\"entries\":[" + batch.get(0).json() + "," + batch.get(1).json() + "]}");
        assertThat(WebhookDelivery.idempotencyKey(batch)).startsWith("omcp-audit-41-42-").hasSize("omcp-audit-41-42-".length() + 16);
    }

    @Test
    void objectKeysDependOnlyOnTheBatchAndSortInChainOrder() {
        Instant t = Instant.parse("2025-01-31T23:59:59.999Z");
        List<AuditRecord> first = List.of(TestRecords.record(9, t, "a", "c", null), TestRecords.record(10, t.plusMillis(1), "a", "c", null));
        List<AuditRecord> second = List.of(TestRecords.record(11, t.plusSeconds(5), "a", "c", null));

        String key1 = S3Delivery.key("omcp-audit/", first);
        String key2 = S3Delivery.key("omcp-audit/", second);

        assertThat(key1).isEqualTo("omcp-audit/2025/01/31/00000000000000000009-00000000000000000010-"
                + TestRecords.fakeHash(10).substring(0, 16) + ".jsonl");
        assertThat(key2).isEqualTo("omcp-audit/2025/02/01/00000000000000000011-00000000000000000011-"
                + TestRecords.fakeHash(11).substring(0, 16) + ".jsonl");
        assertThat(S3Delivery.key("omcp-audit/", first)).isEqualTo(key1);
        assertThat(key1.substring(22)).isLessThan(key2.substring(22));
    }

    @Test
    void anotherChainsBatchWithTheSameSeqsOnTheSameDay_getsItsOwnObject_insteadOfOverwritingTheFirst() {
        // without an audit file every restart begins a new chain at seq 1 (so does moving the file aside):
        // the bucket may be the only lasting copy of the earlier chain, and a PUT to the same key would replace it
        Instant t = Instant.parse("2025-01-31T09:00:00Z");
        List<AuditRecord> beforeRestart = List.of(TestRecords.record(1, t, "user:a", "create", "x"),
                TestRecords.record(2, t, "user:a", "delete", "x"));
        List<AuditRecord> afterRestart = List.of(TestRecords.record(1, t.plusSeconds(3600), "user:b", "create", "y"),
                withHash(TestRecords.record(2, t.plusSeconds(3600), "user:b", "delete", "y"), "ab".repeat(32)));

        assertThat(S3Delivery.key("omcp-audit/", afterRestart)).isNotEqualTo(S3Delivery.key("omcp-audit/", beforeRestart));
        // a retry of one batch still writes the same object
        assertThat(S3Delivery.key("omcp-audit/", afterRestart)).isEqualTo(S3Delivery.key("omcp-audit/", afterRestart));
    }

    private static AuditRecord withHash(AuditRecord record, String hash) {
        var e = record.entry();
        var entry = new dev.omcp.ports.audit.AuditEntry(e.ts(), e.seq(), e.actor(), e.tenant(), e.resource(), e.action(),
                e.method(), e.path(), e.status(), e.ip(), e.target(), e.prevHash(), hash);
        return new AuditRecord(entry, TestRecords.json(entry));
    }

    @Test
    void objectUrisArePathStyle() {
        java.net.URI endpoint = java.net.URI.create("http://127.0.0.1:9000");
        assertThat(S3Delivery.objectUri(endpoint, "audit", "p/2025/01/31/1-2.jsonl").toString())
                .isEqualTo("http://127.0.0.1:9000/audit/p/2025/01/31/1-2.jsonl");
        assertThat(S3Delivery.objectUri(java.net.URI.create("https://s3.example.test/base/"), "b", "k").toString())
                .isEqualTo("https://s3.example.test/base/b/k");
        assertThat(S3Delivery.hostHeader(endpoint)).isEqualTo("127.0.0.1:9000");
        assertThat(S3Delivery.hostHeader(java.net.URI.create("https://s3.example.test:443/"))).isEqualTo("s3.example.test");
    }

    @Test
    void theSignedHost_isTheAuthorityOfTheObjectUri_evenForAnEndpointWrittenWithItsDefaultPort() {
        // over HTTP/2 the JDK client sends the URI's authority as it is written (":authority"), not the Host
        // header of HTTP/1.1 that leaves out a default port; the store checks the signature against what it got
        for (String written : new String[] {"https://s3.example.test:443", "http://127.0.0.1:80/base/", "http://[::1]:9000",
                "https://s3.example.test"}) {
            java.net.URI uri = S3Delivery.objectUri(java.net.URI.create(written), "b", "k");
            assertThat(S3Delivery.hostHeader(uri)).as(written).isEqualTo(uri.getRawAuthority());
        }
    }

    @Test
    void anEndpointBasePath_isSentAsS3CanonicalisesIt_soTheSignedPathIsTheOneTheStoreComputes() {
        // S3 computes the canonical URI from the path it receives: each segment decoded, then URI-encoded once
        // (unreserved characters plain, everything else upper-case %XX). The sink sends and signs the same path
        // (S3Delivery signs uri.getRawPath()), so that path must already be in that form.
        String[][] cases = {
                {"http://h:9000/%7Efoo", "/~foo/b/k"},
                {"http://h:9000/a+b/", "/a%2Bb/b/k"},
                {"http://h:9000/x%2fy", "/x%2Fy/b/k"},
                {"http://h:9000/caf%c3%a9/s3", "/caf%C3%A9/s3/b/k"},
                {"http://h:9000/a%20b", "/a%20b/b/k"},
                {"http://h:9000/minio", "/minio/b/k"},
        };
        for (String[] c : cases) {
            assertThat(S3Delivery.objectUri(java.net.URI.create(c[0]), "b", "k").getRawPath()).as(c[0]).isEqualTo(c[1]);
        }
    }

    @Test
    void aTargetS3WouldRefuse_cannotBeBuilt_soAnEmbedderLearnsAtStartNotAtTheFirstDelivery() {
        java.net.URI endpoint = java.net.URI.create("http://127.0.0.1:9000");
        for (String bucket : new String[] {"a..b", "192.168.5.4", "xn--abc", "Bad_Bucket"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> new S3Delivery.Target(endpoint, bucket, "p/", "us-east-1", "AKID", "secret"))
                    .as(bucket).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be a bucket name")
                    .hasMessageNotContaining("secret");
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new S3Delivery.Target(java.net.URI.create("http://h/%C3%28"), "b-1",
                "p/", "us-east-1", "AKID", "secret")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UTF-8");
    }
}
