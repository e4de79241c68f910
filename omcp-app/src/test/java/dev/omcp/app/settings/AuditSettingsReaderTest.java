package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.audit.FsyncPolicy;
import dev.omcp.adapters.storage.audit.TornTailPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuditSettingsReaderTest {

    private static AuditSettings read(String... pairs) throws InvalidSettingsException {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return SettingsReader.read(env).audit();
    }

    @Test
    void defaultsKeepTheRingInMemoryWithTheSafeFsyncPolicyAndNoSinks() throws Exception {
        AuditSettings audit = read();
        assertThat(audit.file()).isEmpty();
        assertThat(audit.fsync()).isEqualTo(FsyncPolicy.ALWAYS);
        assertThat(audit.fsyncInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(audit.tornTail()).isEqualTo(TornTailPolicy.REPAIR);
        assertThat(audit.webhook()).isEmpty();
        assertThat(audit.s3()).isEmpty();
    }

    @Test
    void aFullConfigurationIsReadWithDeadLettersBesideTheAuditFile() throws Exception {
        AuditSettings audit = read(
                "OMCP_MGMT_AUDIT_FILE", "/var/lib/omcp/audit.jsonl",
                "OMCP_AUDIT_FSYNC", "Batch",
                "OMCP_AUDIT_FSYNC_INTERVAL_MS", "250",
                "OMCP_AUDIT_TORN_TAIL", "refuse",
                "OMCP_AUDIT_WEBHOOK_URL", "https://siem.example.test/ingest?k=1",
                "OMCP_AUDIT_WEBHOOK_TOKEN", "tok-123",
                "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000",
                "OMCP_AUDIT_S3_BUCKET", "audit-logs",
                "OMCP_AUDIT_S3_ACCESS_KEY_ID", "AKID",
                "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t",
                "OMCP_AUDIT_S3_BATCH_SIZE", "200",
                "OMCP_AUDIT_S3_FLUSH_INTERVAL", "30");

        assertThat(audit.file()).contains(Path.of("/var/lib/omcp/audit.jsonl"));
        assertThat(audit.fsync()).isEqualTo(FsyncPolicy.BATCH);
        assertThat(audit.fsyncInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(audit.tornTail()).isEqualTo(TornTailPolicy.REFUSE);
        AuditSettings.Webhook webhook = audit.webhook().orElseThrow();
        assertThat(webhook.url().toString()).isEqualTo("https://siem.example.test/ingest?k=1");
        assertThat(webhook.token()).contains("tok-123");
        assertThat(webhook.deadLetter()).contains(Path.of("/var/lib/omcp/audit.jsonl.webhook-deadletter.jsonl"));
        assertThat(webhook.toString()).doesNotContain("tok-123").doesNotContain("siem.example.test");
        AuditSettings.S3 s3 = audit.s3().orElseThrow();
        assertThat(s3.prefix()).isEqualTo("omcp-audit/");
        assertThat(s3.region()).isEqualTo("us-east-1");
        assertThat(s3.batchSize()).isEqualTo(200);
        assertThat(s3.flushInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s3.deadLetter()).contains(Path.of("/var/lib/omcp/audit.jsonl.s3-deadletter.jsonl"));
        assertThat(s3.toString()).doesNotContain("s3cr3t");
    }

    @Test
    void everyInvalidAuditValueIsReportedAtOnceWithoutSecrets() {
        assertThatThrownBy(() -> read(
                "OMCP_AUDIT_FSYNC", "sometimes",
                "OMCP_AUDIT_FSYNC_INTERVAL_MS", "5",
                "OMCP_AUDIT_TORN_TAIL", "ignore",
                "OMCP_AUDIT_WEBHOOK_URL", "ftp://user:pw@siem.example.test/",
                "OMCP_AUDIT_S3_BUCKET", "Bad_Bucket",
                "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t",
                "OMCP_AUDIT_S3_BATCH_SIZE", "0"))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_AUDIT_FSYNC must be one of always, batch, never")
                .hasMessageContaining("OMCP_AUDIT_FSYNC_INTERVAL_MS must be an integer from 10 to 60000")
                .hasMessageContaining("OMCP_AUDIT_TORN_TAIL must be one of repair, refuse")
                .hasMessageContaining("OMCP_AUDIT_WEBHOOK_URL must be an http:// or https:// URL")
                .hasMessageContaining("OMCP_AUDIT_S3_ENDPOINT is required")
                .hasMessageContaining("OMCP_AUDIT_S3_ACCESS_KEY_ID is required")
                .hasMessageContaining("OMCP_AUDIT_S3_BUCKET must be a bucket name")
                .hasMessageContaining("OMCP_AUDIT_S3_BATCH_SIZE must be an integer from 1 to 10000")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw@").doesNotContain("s3cr3t"));
    }

    @Test
    void anyS3VariableAlone_asksForTheRestOfTheSink_andAMalformedOneIsNotSkippedUnread() {
        // docs/configuration.md: setting any OMCP_AUDIT_S3_* variable requires the endpoint, bucket, key id and secret
        for (String name : List.of("OMCP_AUDIT_S3_PREFIX", "OMCP_AUDIT_S3_REGION", "OMCP_AUDIT_S3_BATCH_SIZE",
                "OMCP_AUDIT_S3_FLUSH_INTERVAL", "OMCP_AUDIT_S3_DEADLETTER")) {
            String value = name.endsWith("DEADLETTER") ? "/tmp/s3-dead.jsonl" : name.endsWith("PREFIX") ? "audit/" : name.endsWith("REGION")
                    ? "eu-west-1" : "100";
            assertThatThrownBy(() -> read(name, value)).as(name)
                    .hasMessageContaining("OMCP_AUDIT_S3_ENDPOINT is required when any OMCP_AUDIT_S3_* variable is set")
                    .hasMessageContaining("OMCP_AUDIT_S3_SECRET_ACCESS_KEY is required");
        }
        assertThatThrownBy(() -> read("OMCP_AUDIT_S3_BATCH_SIZE", "lots"))
                .hasMessageContaining("OMCP_AUDIT_S3_BATCH_SIZE must be an integer from 1 to 10000, got 'lots'");
    }

    @Test
    void aTokenOrKeyIdAnHttpHeaderCannotCarry_refusesTheStart_withoutShowingIt() {
        // a pasted zero-width space or line break: the HTTP client would refuse the header at the first delivery
        // with the value in its message, in the log, and stop the sink's thread
        for (String bad : List.of("tok\u200b123", "tok\n123", "tok 123", "tok\u00e9123")) {
            assertThatThrownBy(() -> read(
                    "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                    "OMCP_AUDIT_WEBHOOK_URL", "https://siem.example.test/ingest",
                    "OMCP_AUDIT_WEBHOOK_TOKEN", bad,
                    "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000",
                    "OMCP_AUDIT_S3_BUCKET", "audit-logs",
                    "OMCP_AUDIT_S3_ACCESS_KEY_ID", bad,
                    "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t"))
                    .as(bad)
                    .isInstanceOf(InvalidSettingsException.class)
                    .hasMessageContaining("OMCP_AUDIT_WEBHOOK_TOKEN must be printable ASCII without spaces")
                    .hasMessageContaining("OMCP_AUDIT_S3_ACCESS_KEY_ID must be printable ASCII without spaces")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("tok"));
        }
    }

    @Test
    void anS3PrefixWithDotSegments_orAnEndpointWithAQuery_refusesTheStart() throws InvalidSettingsException {
        for (String prefix : List.of("../other-bucket/", "audit/./x", "a/..", "..")) {
            assertThatThrownBy(() -> read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000",
                    "OMCP_AUDIT_S3_BUCKET", "audit-logs", "OMCP_AUDIT_S3_ACCESS_KEY_ID", "key", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t",
                    "OMCP_AUDIT_S3_PREFIX", prefix))
                    .as(prefix).isInstanceOf(InvalidSettingsException.class)
                    .hasMessageContaining("OMCP_AUDIT_S3_PREFIX must not have '.' or '..' segments");
        }
        assertThatThrownBy(() -> read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000/?x=1",
                "OMCP_AUDIT_S3_BUCKET", "audit-logs", "OMCP_AUDIT_S3_ACCESS_KEY_ID", "key", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t"))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_AUDIT_S3_ENDPOINT must not have a query");
        // dots inside a name are fine
        assertThat(read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000/minio",
                "OMCP_AUDIT_S3_BUCKET", "audit-logs", "OMCP_AUDIT_S3_ACCESS_KEY_ID", "key", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t",
                "OMCP_AUDIT_S3_PREFIX", "gw.v1/..hidden/").s3()).isPresent();
    }

    @Test
    void aBucketNameS3Refuses_refusesTheStart_insteadOfDeadLetteringEveryBatch() throws InvalidSettingsException {
        // S3's bucket naming rules: no two adjacent periods, not formatted as an IP address, no "xn--" prefix
        for (String bucket : List.of("audit..logs", "192.168.5.4", "10.0.0.1", "xn--audit-logs")) {
            assertThatThrownBy(() -> read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000",
                    "OMCP_AUDIT_S3_BUCKET", bucket, "OMCP_AUDIT_S3_ACCESS_KEY_ID", "key", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t"))
                    .as(bucket).isInstanceOf(InvalidSettingsException.class)
                    .hasMessageContaining("OMCP_AUDIT_S3_BUCKET must be a bucket name")
                    .hasMessageContaining("'" + bucket + "'");
        }
        // an access point alias stands in for a bucket name in object operations, so its reserved suffix is accepted
        for (String bucket : List.of("audit.logs.2025", "my-ap-hrzrlukc5m36ft7okagglf3gmwluquse1b-s3alias", "1.2.3.4.5")) {
            assertThat(read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000",
                    "OMCP_AUDIT_S3_BUCKET", bucket, "OMCP_AUDIT_S3_ACCESS_KEY_ID", "key", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t")
                    .s3()).as(bucket).isPresent();
        }
    }

    @Test
    void anS3EndpointPathWithBytesThatAreNotUtf8_refusesTheStart() {
        assertThatThrownBy(() -> read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_S3_ENDPOINT", "http://127.0.0.1:9000/%C3",
                "OMCP_AUDIT_S3_BUCKET", "audit-logs", "OMCP_AUDIT_S3_ACCESS_KEY_ID", "key", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t"))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_AUDIT_S3_ENDPOINT")
                .hasMessageContaining("UTF-8");
    }

    @Test
    void aWebhookTokenWithoutAUrlIsAMistake() {
        assertThatThrownBy(() -> read("OMCP_AUDIT_WEBHOOK_TOKEN", "tok"))
                .hasMessageContaining("OMCP_AUDIT_WEBHOOK_TOKEN is set but OMCP_AUDIT_WEBHOOK_URL is not")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("tok\""));
    }

    @Test
    void aWebhookDeadLetterFileWithoutAUrl_refusesTheStart_insteadOfStayingEmptyUnnoticed() {
        assertThatThrownBy(() -> read("OMCP_AUDIT_WEBHOOK_DEADLETTER", "/var/lib/omcp/dead.jsonl"))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_AUDIT_WEBHOOK_DEADLETTER is set but OMCP_AUDIT_WEBHOOK_URL is not, and it applies only with"
                                + " OMCP_AUDIT_WEBHOOK_URL; set OMCP_AUDIT_WEBHOOK_URL or unset OMCP_AUDIT_WEBHOOK_DEADLETTER"));
    }

    @Test
    void howTheAuditFileIsWritten_withoutAnAuditFile_refusesTheStart() {
        // the entries then live in memory: fsync and torn-tail repair would do nothing
        for (String[] pair : new String[][] {{"OMCP_AUDIT_FSYNC", "batch"}, {"OMCP_AUDIT_FSYNC_INTERVAL_MS", "250"},
                {"OMCP_AUDIT_TORN_TAIL", "refuse"}}) {
            assertThatThrownBy(() -> read(pair[0], pair[1])).as(pair[0])
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                            pair[0] + " is set but OMCP_MGMT_AUDIT_FILE is not, and it applies only with OMCP_MGMT_AUDIT_FILE;"
                                    + " set OMCP_MGMT_AUDIT_FILE or unset " + pair[0]));
        }
    }

    @Test
    void withoutAnAuditFileDeadLettersHaveNoDefaultFile() throws Exception {
        AuditSettings audit = read("OMCP_AUDIT_WEBHOOK_URL", "https://siem.example.test/hook");
        assertThat(audit.webhook().orElseThrow().deadLetter()).isEmpty();
        assertThat(read("OMCP_AUDIT_WEBHOOK_URL", "https://siem.example.test/hook",
                "OMCP_AUDIT_WEBHOOK_DEADLETTER", "/tmp/dead.jsonl").webhook().orElseThrow().deadLetter())
                .contains(Path.of("/tmp/dead.jsonl"));
    }

    @Test
    void sinkAddresses_followTheEgressRulesOfSources_privateOnlyWithTheOptIn_metadataNever() throws Exception {
        // spec 5.9: private and loopback addresses need OMCP_ALLOW_PRIVATE_BACKENDS=true
        assertThatThrownBy(() -> read(
                "OMCP_AUDIT_WEBHOOK_URL", "http://127.0.0.1:8080/hook",
                "OMCP_AUDIT_S3_ENDPOINT", "http://10.1.2.3:9000", "OMCP_AUDIT_S3_BUCKET", "audit-logs",
                "OMCP_AUDIT_S3_ACCESS_KEY_ID", "AKID", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t"))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_AUDIT_WEBHOOK_URL is refused by the egress rules: the backend address is a loopback address")
                .hasMessageContaining("OMCP_AUDIT_S3_ENDPOINT is refused by the egress rules: the backend address is a private address")
                .hasMessageContaining("set OMCP_ALLOW_PRIVATE_BACKENDS=true");
        assertThat(read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_WEBHOOK_URL", "http://127.0.0.1:8080/hook").webhook())
                .isPresent();
        // spec 5.9: cloud-metadata addresses stay refused even with the opt-in, in any spelling
        for (String metadata : new String[] {"http://169.254.169.254/latest", "http://[fd00:ec2::254]/", "http://0xa9fea9fe/"}) {
            assertThatThrownBy(() -> read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_WEBHOOK_URL", metadata))
                    .as(metadata).isInstanceOf(InvalidSettingsException.class)
                    .hasMessageContaining("OMCP_AUDIT_WEBHOOK_URL is refused by the egress rules");
        }
        assertThatThrownBy(() -> read("OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_AUDIT_S3_ENDPOINT", "http://metadata.google.internal",
                "OMCP_AUDIT_S3_BUCKET", "audit-logs", "OMCP_AUDIT_S3_ACCESS_KEY_ID", "AKID", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t"))
                .hasMessageContaining("OMCP_AUDIT_S3_ENDPOINT is refused by the egress rules: the host is a cloud-metadata service");
    }
}
