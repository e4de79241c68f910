package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.plugins.BuiltInHub;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.ports.plugins.ConnectorUsers;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.SourceReconnection;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginWiringTest {
    private static final String ABSENT = "/nonexistent-omcp-test/plugnis";

    private static Settings.Plugins plugins(Map<String, String> env) throws Exception {
        return SettingsReader.read(env).plugins();
    }

    /** Allowed (no filesystem plugins), but a typo in the path loaded nothing without a word. */
    @Test
    void aPluginsDirTheOperatorNamed_thatDoesNotExist_getsOneLineNamingIt() throws Exception {
        assertThat(PluginWiring.missingDirectoryNote(plugins(Map.of("PLUGINS_DIR", ABSENT)))).hasValue(
                "event=plugins-dir-missing dir=\"" + ABSENT + "\" effect=\"no filesystem plugins are loaded\" note=\"PLUGINS_DIR names a "
                        + "directory that does not exist; omcp plugin install creates it\"");
    }

    @Test
    void theDefaultPluginsDir_missingOutsideTheImage_getsNoLine() throws Exception {
        Settings.Plugins defaults = plugins(Map.of());
        assertThat(defaults.directory()).isEqualTo(Path.of("/app/plugins"));

        assertThat(PluginWiring.missingDirectoryNote(defaults)).isEmpty();
    }

    /** A jar built with -Dmaven.test.skip has no built-in hub: the gateway still starts, and its catalog says why and what to do. */
    @Test
    void aJarWithoutItsBuiltInHub_startsAnyway_andItsCatalogSaysHowToRebuild() throws Exception {
        BuiltInHub.Lookup missing = new BuiltInHub.Lookup.Missing("the jar holds no dev/omcp/app/demo/hub/index.json");

        PluginWiring wiring = PluginWiring.start(plugins(Map.of("PLUGINS_DIR", ABSENT)), List.of(), List.of(), "0.1.0", missing);

        assertThatThrownBy(() -> wiring.management(NO_SOURCES).hubCatalog()).isInstanceOf(HubUnavailableException.class)
                .hasMessageStartingWith("the built-in hub is not in this jar (the jar holds no dev/omcp/app/demo/hub/index.json)")
                .hasMessageContaining("rebuild it with mvn package");
    }

    private static final ConnectorUsers NO_SOURCES = new ConnectorUsers() {
        @Override
        public List<String> sourcesOfType(String connectorType) {
            return List.of();
        }

        @Override
        public List<SourceReconnection> reconnect(String connectorType) {
            return List.of();
        }

        @Override
        public List<SourceReconnection> connectUnconnected(String connectorType) {
            return List.of();
        }
    };

    @Test
    void aPluginsDirThatExists_getsNoLine() throws Exception {
        assertThat(PluginWiring.missingDirectoryNote(plugins(Map.of("PLUGINS_DIR", System.getProperty("java.io.tmpdir"))))).isEmpty();
    }
}
