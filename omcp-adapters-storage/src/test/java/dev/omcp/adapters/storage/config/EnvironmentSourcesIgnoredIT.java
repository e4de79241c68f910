package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.ports.sources.SourceDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * With a sources file, PROMETHEUS_URL and LOKI_URL make no sources of their own; a variable the
 * file does not reference is said to be ignored, so an operator who sets one after the file exists
 * is not left guessing.
 */
class EnvironmentSourcesIgnoredIT {
    @TempDir
    Path dir;

    @RegisterExtension
    final CapturedLog log = new CapturedLog(YamlSourceStore.class);

    private List<String> ignoredWarnings() {
        return log.messages(Level.WARN).stream().filter(m -> m.startsWith("event=environment-source-ignored")).toList();
    }

    @Test
    void aVariableTheFileDoesNotReference_isReportedAsIgnored_andTheFileAloneDefinesTheSources() throws Exception {
        Path file = dir.resolve("sources.yaml");
        Files.writeString(file, """
                sources:
                  - name: prom
                    type: prometheus
                    url: ${PROMETHEUS_URL}
                """);
        List<EnvironmentSource> env = List.of(new EnvironmentSource("prometheus", "PROMETHEUS_URL", List.of("http://prom.example.com")),
                new EnvironmentSource("loki", "LOKI_URL", List.of("http://loki.example.com")));
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir,
                Map.of("PROMETHEUS_URL", "http://prom.example.com", "LOKI_URL", "http://loki.example.com"), env);

        assertThat(store.load().sources()).extracting(SourceDefinition::name).containsExactly("prom");
        assertThat(ignoredWarnings()).singleElement().satisfies(m -> assertThat(m)
                .contains("variable=LOKI_URL").contains("it alone defines the sources").contains("url: ${LOKI_URL}")
                .doesNotContain("loki.example.com"));
    }

    @Test
    void withoutAFile_orWithoutTheVariables_nothingIsReported() throws Exception {
        new YamlSourceStore(Optional.empty(), dir, Map.of("LOKI_URL", "http://loki.example.com"),
                List.of(new EnvironmentSource("loki", "LOKI_URL", List.of("http://loki.example.com")))).load();
        Path file = dir.resolve("sources.yaml");
        Files.writeString(file, "sources: []\n");
        new YamlSourceStore(Optional.of(file), dir, Map.of(), List.of()).load();
        assertThat(ignoredWarnings()).isEmpty();
    }
}
