package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.adapters.storage.CapturedLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway loads its sources file twice at start (the plugin pins, then the sources): a missing,
 * unreadable or partly ignored file is said once, not twice in a row on standard error.
 */
class SourcesFileWarningsOnceIT {
    @TempDir
    Path dir;

    @RegisterExtension
    final CapturedLog log = new CapturedLog(YamlSourceStore.class);

    private long said(String event) {
        return log.events().stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .filter(e -> e.getFormattedMessage().startsWith("event=" + event + " ")).count();
    }

    @Test
    void aMissingFile_isSaidOnce_andAgainOnlyAfterItCameBackAndWentAgain() throws Exception {
        Path file = dir.resolve("sources.yaml");
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, Map.of(), List.of());

        store.load();
        store.load();
        assertThat(said("sources-file-missing")).isEqualTo(1);

        Files.writeString(file, "sources: []\n");
        store.load();
        Files.delete(file);
        store.load();
        assertThat(said("sources-file-missing")).as("a new absence is news").isEqualTo(2);
    }

    @Test
    void anUnreadableFile_isSaidOnce_andAnotherProblemWithItIsSaidToo() throws Exception {
        Path file = Files.writeString(dir.resolve("sources.yaml"), "sources: [\n");
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, Map.of(), List.of());

        assertThat(store.load().problems()).singleElement().asString().contains("not valid YAML");
        assertThat(store.load().problems()).as("every load still reports the problem to its caller").hasSize(1);
        assertThat(said("sources-file-unreadable")).isEqualTo(1);

        Files.writeString(file, "- just a list\n");
        store.load();
        assertThat(said("sources-file-unreadable")).isEqualTo(2);
    }

    @Test
    void anIgnoredEnvironmentVariable_isSaidOnce() throws Exception {
        Path file = Files.writeString(dir.resolve("sources.yaml"), "sources: []\n");
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, Map.of("LOKI_URL", "http://loki.example.com"),
                List.of(new EnvironmentSource("loki", "LOKI_URL", List.of("http://loki.example.com"))));

        store.load();
        store.load();
        assertThat(said("environment-source-ignored")).isEqualTo(1);
    }

    @Test
    void anUnsetVariable_isNamedAsTheFileWritesIt() throws Exception {
        Path file = Files.writeString(dir.resolve("sources.yaml"),
                "sources:\n  - name: prom\n    type: prometheus\n    url: ${NOPE_X}\n");
        new YamlSourceStore(Optional.of(file), dir, Map.of(), List.of()).load();

        assertThat(log.events()).filteredOn(e -> e.getFormattedMessage().startsWith("event=sources-variable-unset "))
                .singleElement().satisfies(e -> assertThat(e.getFormattedMessage()).endsWith("kept literally as ${NOPE_X}\""));
    }
}
