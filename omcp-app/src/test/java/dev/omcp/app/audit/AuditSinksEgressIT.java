package dev.omcp.app.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.ports.audit.AuditEvent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit webhook and object-storage sinks go through the same egress guard as sources (spec
 * 5.9): a host name that resolves to loopback refuses the start unless private backends are
 * allowed, and with the opt-in entries reach a real receiver through the guarded client.
 */
class AuditSinksEgressIT {
    /** What the receiver was sent: method, path and body. */
    private record Received(String method, String path, String body) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private HttpServer receiver;

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    new String(body, StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.createContext("/refuse", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    /** The receiver by a name, not a literal: the name is judged where it resolves, as a source's would be. */
    private String receiverByName() {
        return "http://localhost:" + receiver.getAddress().getPort();
    }

    private static GatewayAssembly start(Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>(extra);
        env.put("HOST", "127.0.0.1");
        env.put("PORT", "0");
        env.put("OMCP_SHUTDOWN_GRACE", "1");
        return GatewayAssembly.start(SettingsReader.read(env), GatewayAssembly.Options.none(), "test");
    }

    private Map<String, String> objectStore(String endpoint) {
        return Map.of("OMCP_AUDIT_S3_ENDPOINT", endpoint, "OMCP_AUDIT_S3_BUCKET", "audit-logs",
                "OMCP_AUDIT_S3_ACCESS_KEY_ID", "AKID", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t-key",
                "OMCP_AUDIT_S3_BATCH_SIZE", "1", "OMCP_AUDIT_S3_FLUSH_INTERVAL", "1");
    }

    @Test
    void aWebhookWhoseNameResolvesToLoopback_refusesTheStart_withoutTheOptIn() {
        assertThatThrownBy(() -> start(Map.of("OMCP_AUDIT_WEBHOOK_URL", receiverByName() + "/hook")))
                .isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("OMCP_AUDIT_WEBHOOK_URL: the host localhost is refused by the egress rules: "
                        + "the backend address is a loopback address; set OMCP_ALLOW_PRIVATE_BACKENDS=true");
        assertThat(received).isEmpty();
    }

    @Test
    void anObjectStoreWhoseNameResolvesToLoopback_refusesTheStart_withoutTheOptIn() {
        assertThatThrownBy(() -> start(objectStore(receiverByName())))
                .isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("OMCP_AUDIT_S3_ENDPOINT: the host localhost is refused by the egress rules")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cr3t-key"));
        assertThat(received).isEmpty();
    }

    @Test
    void withTheOptIn_entriesReachTheWebhookAndTheObjectStore_throughTheGuardedClient() throws Exception {
        Map<String, String> env = new HashMap<>(objectStore(receiverByName()));
        env.put("OMCP_AUDIT_WEBHOOK_URL", receiverByName() + "/hook");
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        try (GatewayAssembly gateway = start(env)) {
            gateway.audit().record(new AuditEvent("user:alice", "", "sources", "write", "PUT", "/api/sources/prom", 200,
                    "127.0.0.1", "prom"));

            Instant deadline = Instant.now().plus(Duration.ofSeconds(15));
            while ((received.stream().noneMatch(r -> r.method().equals("POST")) || received.stream().noneMatch(r -> r.method().equals("PUT")))
                    && Instant.now().isBefore(deadline)) {
                Thread.sleep(50); // waits for the background delivery; no time rule is judged here
            }
        }
        assertThat(received).filteredOn(r -> r.method().equals("POST")).singleElement().satisfies(r -> {
            assertThat(r.path()).isEqualTo("/hook");
            assertThat(r.body()).contains("\"kind\":\"omcp.audit.batch\"", "\"actor\":\"user:alice\"", "\"seq\":1");
        });
        assertThat(received).filteredOn(r -> r.method().equals("PUT")).singleElement().satisfies(r -> {
            assertThat(r.path()).startsWith("/audit-logs/omcp-audit/").endsWith(".jsonl");
            assertThat(r.body()).contains("\"actor\":\"user:alice\"");
        });
    }

    @Test
    void aSinkThatFails_isReportedByGetApiAudit_withWhyAndSinceWhen_butNotItsAddressOrToken() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUDIT_WEBHOOK_URL", receiverByName() + "/refuse");
        env.put("OMCP_AUDIT_WEBHOOK_TOKEN", "whk-secret-token-42");
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        HttpClient http = HttpClient.newHttpClient();
        try (GatewayAssembly gateway = start(env)) {
            URI audit = URI.create("http://127.0.0.1:" + gateway.port() + "/api/audit");
            JsonNode sinks = JSON.readTree(http.send(HttpRequest.newBuilder(audit).build(), HttpResponse.BodyHandlers.ofString())
                    .body()).get("sinks");
            assertThat(sinks).as("before any delivery").singleElement().satisfies(sink -> {
                assertThat(sink.get("name").asText()).isEqualTo("webhook");
                assertThat(sink.get("failingSince").isNull()).isTrue();
            });

            recordAChange(gateway);
            String body = auditOnceDeadLettered(http, audit);
            JsonNode sink = JSON.readTree(body).at("/sinks/0");
            assertThat(sink.get("deadLettered").asLong()).as(body).isEqualTo(1);
            assertThat(sink.get("delivered").asLong()).isZero();
            assertThat(sink.get("lastFailure").asText()).startsWith("HTTP 400");
            assertThat(Instant.parse(sink.get("failingSince").asText())).isBefore(Instant.now().plusSeconds(1));
            assertThat(body).doesNotContain("whk-secret-token-42").doesNotContain(String.valueOf(receiver.getAddress().getPort()));
        }
    }

    private static void recordAChange(GatewayAssembly gateway) {
        gateway.audit().record(new AuditEvent("user:alice", "", "sources", "write", "PUT", "/api/sources/prom", 200,
                "127.0.0.1", "prom"));
    }

    /** GET /api/audit once its first sink has dead-lettered an entry, or as it stands after 15 s. */
    private static String auditOnceDeadLettered(HttpClient http, URI audit) throws Exception {
        String body = "";
        Instant deadline = Instant.now().plus(Duration.ofSeconds(15));
        while (Instant.now().isBefore(deadline)) {
            body = http.send(HttpRequest.newBuilder(audit).build(), HttpResponse.BodyHandlers.ofString()).body();
            if (JSON.readTree(body).at("/sinks/0/deadLettered").asLong() == 1) {
                break;
            }
            Thread.sleep(50); // waits for the background delivery; no time rule is judged here
        }
        return body;
    }

    @Test
    void anEntryNeitherDeliveredNorDeadLettered_isCountedAsLost_byGetApiAudit_andAtMetrics(@TempDir Path dir) throws Exception {
        // the dead-letter file's folder is a regular file: the write fails, as on a full or read-only disk
        Path notAFolder = Files.writeString(dir.resolve("not-a-folder"), "x");
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUDIT_WEBHOOK_URL", receiverByName() + "/refuse");
        env.put("OMCP_AUDIT_WEBHOOK_DEADLETTER", notAFolder.resolve("dead.jsonl").toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        HttpClient http = HttpClient.newHttpClient();
        try (GatewayAssembly gateway = start(env)) {
            URI audit = URI.create("http://127.0.0.1:" + gateway.port() + "/api/audit");
            URI metrics = URI.create("http://127.0.0.1:" + gateway.port() + "/metrics");
            assertThat(http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body())
                    .as("exported from 0, so an alert on it works from the first loss")
                    .contains("omcp_audit_sink_lost_total{sink=\"webhook\"} 0.0").contains("omcp_audit_recording 1.0");

            recordAChange(gateway);
            String body = auditOnceDeadLettered(http, audit);
            JsonNode sink = JSON.readTree(body).at("/sinks/0");
            assertThat(sink.get("deadLettered").asLong()).as(body).isEqualTo(1);
            assertThat(sink.get("lost").asLong()).as(body).isEqualTo(1);
            String text = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(text).contains("omcp_audit_sink_lost_total{sink=\"webhook\"} 1.0")
                    .contains("omcp_audit_sink_dead_lettered_total{sink=\"webhook\"} 1.0")
                    .contains("omcp_audit_sink_delivered_total{sink=\"webhook\"} 0.0");
        }
    }
}
