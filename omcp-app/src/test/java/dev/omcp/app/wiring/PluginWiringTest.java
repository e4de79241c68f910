package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import java.nio.file.Path;
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

    @Test
    void aPluginsDirThatExists_getsNoLine() throws Exception {
        assertThat(PluginWiring.missingDirectoryNote(plugins(Map.of("PLUGINS_DIR", System.getProperty("java.io.tmpdir"))))).isEmpty();
    }
}
