package dev.omcp.app.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.ports.audit.AuditEvent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/audit} and {@code /api/info} on the assembled gateway. */
class AuditApiIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private static GatewayAssembly start(Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>(extra);
        env.put("PORT", "0");
        return GatewayAssembly.start(SettingsReader.read(env), GatewayAssembly.Options.none(), "test");
    }

    private static HttpResponse<String> get(GatewayAssembly gateway, String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + pathAndQuery)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void record(GatewayAssembly gateway, int count) {
        for (int i = 1; i <= count; i++) {
            gateway.audit().record(new AuditEvent(i % 2 == 0 ? "user:bob" : "user:alice", "", "sources",
                    i % 3 == 0 ? "delete" : "write", "PUT", "/api/sources/s" + i, 200, "127.0.0.1", "s" + i));
        }
    }

    @Test
    void spec2_10_auditPersistedIsTrueOnlyWithAFile() throws Exception {
        try (GatewayAssembly memory = start(Map.of())) {
            assertThat(JSON.readTree(get(memory, "/api/info").body()).at("/governance/auditPersisted").asBoolean()).isFalse();
        }
        try (GatewayAssembly file = start(Map.of("OMCP_MGMT_AUDIT_FILE", dir.resolve("audit.jsonl").toString()))) {
            assertThat(JSON.readTree(get(file, "/api/info").body()).at("/governance/auditPersisted").asBoolean()).isTrue();
        }
    }

    @Test
    void entriesComeFromTheFileNewestFirstExactlyAsWrittenWithTheTip() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        try (GatewayAssembly first = start(Map.of("OMCP_MGMT_AUDIT_FILE", file.toString()))) {
            record(first, 6);
        }
        // a new process: the entries must come from the file, not from memory
        try (GatewayAssembly gateway = start(Map.of("OMCP_MGMT_AUDIT_FILE", file.toString()))) {
            HttpResponse<String> response = get(gateway, "/api/audit?limit=4");
            JsonNode body = JSON.readTree(response.body());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(body.get("count").asInt()).isEqualTo(4);
            assertThat(body.get("tipSeq").asLong()).isEqualTo(6);
            assertThat(body.get("persisted").asBoolean()).isTrue();
            assertThat(body.get("recording").asText()).isEqualTo("ok");
            List<String> lines = Files.readAllLines(file);
            assertThat(body.get("tipHash").asText()).isEqualTo(JSON.readTree(lines.get(5)).get("hash").asText());
            ObjectMapper sorted = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
            for (int i = 0; i < 4; i++) {
                JsonNode entry = body.get("entries").get(i);
                assertThat(entry.get("seq").asLong()).isEqualTo(6 - i);
                assertThat(sorted.writeValueAsString(entry)).isEqualTo(lines.get(5 - i));
            }

            JsonNode filtered = JSON.readTree(get(gateway, "/api/audit?actor=user:bob&action=delete").body());
            assertThat(filtered.get("entries")).extracting(e -> e.get("seq").asLong()).containsExactly(6L);
        }
    }

    @Test
    void invalidParametersAnswer400WithACode() throws Exception {
        try (GatewayAssembly gateway = start(Map.of())) {
            for (String query : List.of("limit=0", "limit=1001", "limit=abc", "from=yesterday", "to=2025-01-01",
                    "from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z", "actor=a&actor=b", "acter=alice")) {
                HttpResponse<String> response = get(gateway, "/api/audit?" + query);
                assertThat(response.statusCode()).as(query).isEqualTo(400);
                JsonNode body = JSON.readTree(response.body());
                assertThat(body.get("code").asText()).as(query).isEqualTo("OMCP_INVALID_PARAMETERS");
                assertThat(body.get("error").asText()).as(query).isNotBlank();
            }
        }
    }

    @Test
    void withoutAFileTheRingServesTheNewestEntries() throws Exception {
        try (GatewayAssembly gateway = start(Map.of())) {
            record(gateway, 3);
            JsonNode body = JSON.readTree(get(gateway, "/api/audit").body());
            assertThat(body.get("entries")).extracting(e -> e.get("seq").asLong()).containsExactly(3L, 2L, 1L);
            assertThat(body.get("persisted").asBoolean()).isFalse();
            assertThat(body.at("/entries/0/tenant").isNull()).isTrue();
        }
    }

    @Test
    void anUnusableAuditFileStopsTheGatewayFromStarting() throws Exception {
        // a directory is refused with the other settings, before anything starts
        Path directory = Files.createDirectory(dir.resolve("not-a-file"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> start(Map.of("OMCP_MGMT_AUDIT_FILE", directory.toString())))
                .isInstanceOf(dev.omcp.app.settings.InvalidSettingsException.class)
                .hasMessageContaining("OMCP_MGMT_AUDIT_FILE names a directory");
        // a FIFO passes that check (it is no directory) and is refused when the audit file is opened
        Path fifo = dir.resolve("audit.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assertThat(mkfifo.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && mkfifo.exitValue() == 0).as("mkfifo").isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> start(Map.of("OMCP_MGMT_AUDIT_FILE", fifo.toString())))
                .hasMessageContaining("not a regular file");
    }
}
