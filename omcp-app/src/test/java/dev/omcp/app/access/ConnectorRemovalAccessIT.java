package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec 5.5: removing a plugin needs connectors:delete, which of the builtin roles only admin holds. */
class ConnectorRemovalAccessIT {
    @TempDir
    Path dir;
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void anOperatorIsRefused403_thePluginStays_andTheRefusalIsAudited_anAdminRemovesIt() throws IOException {
        Path plugins = dir.resolve("plugins");
        Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));
        copyTree(reference.resolve("plugins/tempo"), plugins.resolve("tempo"));
        Map<String, String> env = new java.util.HashMap<>(ManagementUsers.basicMode(dir));
        env.put("PLUGINS_DIR", plugins.toString());
        env.put("PLUGIN_TRUST_ROOT", reference.resolve("trust-root.pem").toString());
        env.put("ENABLE_UI_INSTALL", "true");
        gateway = TestGateway.start(env, new ManualClock(Instant.parse("2026-03-01T10:00:00Z")));

        Browser alice = ManagementUsers.login(gateway, "alice");
        // the test gateway is version 0.0.0, which tempo's compat range excludes: it is listed (skipped), not loaded
        assertThat(alice.get("/api/connectors").body()).contains("\"location\":\"tempo\"");

        Browser.Reply refused = ManagementUsers.login(gateway, "olivia").send("DELETE", "/api/connectors/tempo", null);

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
        assertThat(refused.body()).contains("connectors:delete");
        assertThat(plugins.resolve("tempo/manifest.json")).exists();

        Browser.Reply removed = alice.send("DELETE", "/api/connectors/tempo", null);

        assertThat(removed.status()).as(removed.body()).isEqualTo(200);
        assertThat(alice.get("/api/connectors").body()).doesNotContain("\"location\":\"tempo\"");
        try (Stream<Path> left = Files.list(plugins)) {
            // the change lock's file stays for good: it holds no plugin
            assertThat(left).extracting(f -> f.getFileName().toString()).containsExactly(".omcp-install.lock");
        }
        List<AuditEvent> audited = gateway.audit.events().stream().filter(e -> e.resource().equals("connectors")).toList();
        assertThat(audited).extracting(AuditEvent::actor, AuditEvent::action, AuditEvent::status, AuditEvent::target).containsExactly(
                org.assertj.core.groups.Tuple.tuple("olivia", "delete", 403, "tempo"),
                org.assertj.core.groups.Tuple.tuple("alice", "delete", 200, "tempo@0.1.0-SNAPSHOT removed"));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path path : walk.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }
}
