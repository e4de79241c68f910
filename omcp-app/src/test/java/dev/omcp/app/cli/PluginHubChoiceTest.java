package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.plugins.BuiltInHub;
import dev.omcp.app.settings.SettingsReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code omcp plugin list|info|install} without {@code --from}: the hub HUB_CATALOG_URL selects, or why there is none. */
class PluginHubChoiceTest {
    private final StringWriter err = new StringWriter();

    @Test
    void aJarWithoutItsBuiltInHub_saysSo_howToRebuild_andThatFromStillWorks() throws Exception {
        BuiltInHub.Lookup missing = new BuiltInHub.Lookup.Missing("the jar holds no dev/omcp/app/demo/hub/index.json");

        assertThat(PluginCommand.hub(Optional.empty(), SettingsReader.read(Map.of()), Optional.empty(), missing,
                new PrintWriter(err, true))).isEmpty();

        assertThat(err.toString()).startsWith("omcp: no hub catalog: the built-in hub is not in this jar")
                .contains("rebuild it with mvn package").contains(", or pass --from <dir|url>");
    }

    @Test
    void hubCatalogUrlOff_isNoHub_namingIt() throws Exception {
        BuiltInHub.Lookup missing = new BuiltInHub.Lookup.Missing("not looked at");

        assertThat(PluginCommand.hub(Optional.empty(), SettingsReader.read(Map.of("HUB_CATALOG_URL", "none")), Optional.empty(), missing,
                new PrintWriter(err, true))).isEmpty();

        assertThat(err.toString()).startsWith("omcp: no hub catalog: the connector hub is off (HUB_CATALOG_URL=none)")
                .contains(", or pass --from <dir|url>");
    }

    @Test
    void theBuiltInHub_isListedByThatName() {
        assertThat(PluginCommand.sourceShown("builtin")).isEqualTo("the built-in hub");
        assertThat(PluginCommand.sourceShown("/srv/hub")).isEqualTo("/srv/hub");
    }
}
