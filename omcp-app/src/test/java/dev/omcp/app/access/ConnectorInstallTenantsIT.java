package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec 5.5 tenants: a plugin serves every tenant, so only an operator without a tenant installs, uploads or removes one;
 * its install reconnects every tenant's sources.
 */
class ConnectorInstallTenantsIT {
    @TempDir
    Path dir;
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static Path reference() {
        return Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins")).toAbsolutePath();
    }

    private void start() throws IOException {
        Files.writeString(dir.resolve("sources.yaml"), """
                sources:
                  - name: traces-acme
                    type: tempo
                    url: http://127.0.0.1:9
                    tenant: acme
                  - name: traces-globex
                    type: tempo
                    url: http://127.0.0.1:9
                    tenant: globex
                  - name: traces-shared
                    type: tempo
                    url: http://127.0.0.1:9
                """);
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", dir.resolve("sources.yaml").toString());
        env.put("PLUGINS_DIR", dir.resolve("plugins").toString());
        env.put("HUB_CATALOG_URL", reference().resolve("hub").toString());
        env.put("PLUGIN_TRUST_ROOT", reference().resolve("trust-root.pem").toString());
        env.put("ENABLE_UI_INSTALL", "true");
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        gateway = TestGateway.start(env, new ManualClock(Instant.parse("2026-03-01T10:00:00Z")), "0.1.0");
    }

    @Test
    void aTenantsAdmin_installsUploadsAndRemovesNoPlugin_whichWouldServeEveryTenant_andNothingChanges() throws IOException {
        start();
        Browser ada = ManagementUsers.login(gateway, "ada");
        Browser alice = ManagementUsers.login(gateway, "alice");
        String connectorsBefore = ada.get("/api/connectors").body();
        String sourcesBefore = alice.get("/api/sources").body();

        Browser.Reply installed = ada.post("/api/connectors/install", "{\"name\": \"tempo\"}");
        Browser.Reply uploaded = ada.send("POST", "/api/connectors/upload", "not a bundle");
        Browser.Reply removed = ada.send("DELETE", "/api/connectors/tempo?force=true", null);

        for (Browser.Reply refused : List.of(installed, uploaded, removed)) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(403);
            assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_CONNECTORS_GATEWAY_WIDE");
            assertThat(refused.json().path("error").asText()).contains("every tenant", "tenant 'acme'", "nothing changed",
                    "operator without a tenant");
        }
        assertThat(ada.get("/api/connectors").body()).as("no plugin installed").isEqualTo(connectorsBefore);
        assertThat(Files.exists(dir.resolve("plugins").resolve("tempo"))).as("nothing written to the plugins directory").isFalse();
        assertThat(alice.get("/api/sources").body()).as("no source reconnected").isEqualTo(sourcesBefore);
        assertThat(gateway.audit.events().stream().filter(e -> e.resource().equals("connectors")).toList())
                .extracting(AuditEvent::actor, AuditEvent::status)
                .containsExactly(tuple("ada", 403), tuple("ada", 403), tuple("ada", 403));
    }

    @Test
    void anOperatorWithoutATenant_installsThePlugin_andItsAnswerNamesEveryTenantsSource() throws IOException {
        start();
        Browser alice = ManagementUsers.login(gateway, "alice");

        Browser.Reply reply = alice.post("/api/connectors/install", "{\"name\": \"tempo\"}");

        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        JsonNode body = reply.json();
        assertThat(body.path("sources").findValuesAsText("name")).containsExactly("traces-acme", "traces-globex", "traces-shared");
        JsonNode all = alice.get("/api/sources").json().path("sources");
        assertThat(all.findValuesAsText("status")).as("the plugin serves every tenant: " + all).containsOnly("connected").hasSize(3);
    }
}
