package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The sources file's mode on a real POSIX file system, when the API writes a secret into it. */
class SourcesFileModeIT {
    private static final Map<String, String> ENV = Map.of("PROM_TOKEN", "tok-from-env");
    private static final String ORIGINAL = """
            sources:
              - name: prom
                type: prometheus
                url: https://p.example.com
                metrics: {cpu: 'sum(rate(cpu_seconds_total[5m]))'}
                auth: {type: bearer, token: "${PROM_TOKEN}"}
              - name: loki
                type: loki
                url: https://l.example.com
                headers: {X-Scope-OrgID: team-a}
            plugins:
              - {name: tempo, version: 1.2.0}
            health:
              thresholds:
                error_rate: {degraded: 0.02, critical: 0.1}
            """;

    @TempDir
    Path dir;

    @RegisterExtension
    final CapturedLog log = new CapturedLog(YamlSourceStore.class);

    private Path worldReadable(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("sources.yaml"), yaml);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    private static String mode(Path file) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    private static List<SourceDefinition> withLokiHeaders(List<SourceDefinition> sources, JsonObject headers) {
        List<SourceDefinition> next = new ArrayList<>();
        for (SourceDefinition d : sources) {
            if (d.name().equals("loki")) {
                SourceConfig c = d.config();
                next.add(new SourceDefinition(new SourceConfig(c.name(), c.type(), c.url(), c.tenant(),
                        Json.createObjectBuilder(c.settings()).add("headers", headers).build()), d.enabled(), SourceDefinition.Origin.API));
            } else {
                next.add(d);
            }
        }
        return next;
    }

    private List<ILoggingEvent> modeWarnings() {
        return log.events().stream().filter(e -> e.getLevel() == Level.WARN && e.getFormattedMessage().contains("sources-file-mode")).toList();
    }

    @Test
    void aWorldReadableFile_isNarrowedTo0600_whenAnApiUserTypesInAHeaderSecret_andKeepsEverythingElse() throws Exception {
        Path file = worldReadable(ORIGINAL);
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, ENV, List.of());
        List<SourceDefinition> loaded = store.load().sources();

        // a change without a secret written out keeps the operator's mode: the token is a ${VAR} reference
        store.save(withLokiHeaders(loaded, Json.createObjectBuilder().add("X-Scope-OrgID", "team-b").build()));
        assertThat(mode(file)).isEqualTo("rw-r--r--");
        assertThat(modeWarnings()).isEmpty();

        store.save(withLokiHeaders(loaded, Json.createObjectBuilder().add("X-Scope-OrgID", "team-b")
                .add("X-Api-Key", "typed-into-the-ui").build()));
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(modeWarnings()).singleElement().satisfies(e -> assertThat(e.getFormattedMessage())
                .contains("file=" + file).contains("from=rw-r--r--").contains("to=rw-------").doesNotContain("typed-into-the-ui"));

        String written = Files.readString(file);
        assertThat(written).contains("typed-into-the-ui").contains("token: ${PROM_TOKEN}").doesNotContain("tok-from-env")
                .contains("X-Scope-OrgID: team-b").contains("cpu: sum(rate(cpu_seconds_total[5m]))");
        // the other blocks stay, in their order
        assertThat(written.indexOf("sources:")).isLessThan(written.indexOf("plugins:"));
        assertThat(written.indexOf("plugins:")).isLessThan(written.indexOf("health:"));
        assertThat(written.indexOf("name: prom")).isLessThan(written.indexOf("name: loki"));
        var reread = new YamlSourceStore(Optional.of(file), dir, ENV, List.of()).load();
        assertThat(reread.problems()).isEmpty();
        assertThat(reread.sources()).extracting(SourceDefinition::name).containsExactly("prom", "loki");
        assertThat(reread.sources().get(0).config().settings()).isEqualTo(loaded.get(0).config().settings());
        assertThat(reread.plugins()).hasSize(1);
        assertThat(reread.healthThresholds().toString()).contains("error_rate");

        // later writes keep 0600 without warning again
        store.save(reread.sources());
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(modeWarnings()).hasSize(1);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("sources.yaml", "sources.yaml.lock");
        }
    }

    @Test
    void aPasswordWrittenOut_orAReferenceWithADefaultSecret_narrowsTheMode_alsoOnAThresholdsWrite() throws Exception {
        // hand-written, world-readable, with a secret in a default: the next write of any kind narrows it
        Path file = worldReadable("""
                sources:
                  - name: loki
                    type: loki
                    url: https://l.example.com
                    auth: {type: basic, username: u, password: "${LOKI_PASSWORD:-hunter2}"}
                """);
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, ENV, List.of());
        store.load();
        store.thresholds().save(Json.createObjectBuilder().add("error_rate", Json.createObjectBuilder().add("degraded", 0.05)).build());
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(Files.readString(file)).contains("${LOKI_PASSWORD:-hunter2}").contains("degraded: 0.05");
    }

    @Test
    void aGroupReadableFileOfReferencesOnly_keepsItsMode() throws Exception {
        Path file = worldReadable(ORIGINAL);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, ENV, List.of());
        store.save(store.load().sources());
        assertThat(mode(file)).isEqualTo("rw-r-----");
        assertThat(modeWarnings()).isEmpty();
    }
}
