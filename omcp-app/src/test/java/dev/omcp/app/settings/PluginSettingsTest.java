package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** spec 5.8 and 6.1: the plugin variables. */
class PluginSettingsTest {

    private static Settings.Plugins read(Map<String, String> env) throws InvalidSettingsException {
        return SettingsReader.read(env).plugins();
    }

    @Test
    void spec5_8_defaults() throws Exception {
        Settings.Plugins plugins = read(Map.of());
        assertThat(plugins.directory()).isEqualTo(Path.of("/app/plugins"));
        assertThat(plugins.directoryNamed()).as("the default, not named by the operator").isFalse();
        assertThat(read(Map.of("PLUGINS_DIR", "/app/plugins")).directoryNamed()).as("named, even as the default").isTrue();
        assertThat(plugins.verify()).isTrue();
        assertThat(plugins.trustRoot()).isEmpty();
        assertThat(plugins.requireSignature()).isFalse();
        assertThat(plugins.uiInstall()).isFalse();
        assertThat(plugins.hub()).as("spec 5.8: HUB_CATALOG_URL defaults to the built-in hub").isEqualTo(new Settings.HubSource.BuiltIn());
        assertThat(plugins.hookMode()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "0", "no", "off", "OFF", "No"})
    void spec5_8_verifyPlugins_theseOptOut(String value) throws Exception {
        assertThat(read(Map.of("VERIFY_PLUGINS", value)).verify()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "1", "yes", "on", "On", "TRUE"})
    void spec5_8_verifyPlugins_theseKeepPluginsGated(String value) throws Exception {
        assertThat(read(Map.of("VERIFY_PLUGINS", value)).verify()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"flase", "disable", "of", "banana", "enabled"})
    void verifyPlugins_aValueThatIsNeitherOnNorOff_refusesTheStart_insteadOfSilentlyStayingOn(String value) {
        // the operator meant to change the setting; which way is unknown, so nothing is guessed
        assertThatThrownBy(() -> read(Map.of("VERIFY_PLUGINS", value, "OMCP_HOOK_MODE", "lenient")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("VERIFY_PLUGINS must be true or false (also 1/0, yes/no, on/off), got '" + value + "'")
                .as("reported with the other problems, all at once").hasMessageContaining("OMCP_HOOK_MODE must be");
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "1", "yes", "on", "TRUE"})
    void spec5_8_requireSignature_theseTurnStrictModeOn(String value) throws Exception {
        assertThat(read(Map.of("PLUGIN_REQUIRE_SIGNATURE", value)).requireSignature()).isTrue();
    }

    @Test
    void aTypoInASecuritySwitch_refusesTheStartInsteadOfSilentlyTurningItOff() {
        assertThatThrownBy(() -> read(Map.of("PLUGIN_REQUIRE_SIGNATURE", "ture", "ENABLE_UI_INSTALL", "yess")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("PLUGIN_REQUIRE_SIGNATURE must be true or false (also 1/0, yes/no, on/off), got 'ture'")
                .hasMessageContaining("ENABLE_UI_INSTALL must be true");
    }

    @Test
    void spec6_1_hookModeOverride() throws Exception {
        assertThat(read(Map.of("OMCP_HOOK_MODE", "Permissive")).hookMode()).contains("permissive");
        assertThatThrownBy(() -> read(Map.of("OMCP_HOOK_MODE", "lenient")))
                .hasMessageContaining("OMCP_HOOK_MODE must be enforce, permissive or disabled, got 'lenient'");
    }

    @Test
    void hookMode_anInvalidValue_isShownAsWritten_notLowerCased() {
        // the operator greps their files for what the message quotes
        assertThatThrownBy(() -> read(Map.of("OMCP_HOOK_MODE", "Strict")))
                .hasMessageContaining("OMCP_HOOK_MODE must be enforce, permissive or disabled, got 'Strict'");
    }

    @Test
    void pluginsDir_namingAFile_refusesTheStart_insteadOfLoadingNoPluginWithoutAWord(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plugins.tgz"), "not a directory");
        assertThatThrownBy(() -> read(Map.of("PLUGINS_DIR", file.toString())))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("PLUGINS_DIR names '" + file + "', which is not a directory");
    }

    @Test
    void pluginsDir_missingOrADirectory_isAccepted(@TempDir Path dir) throws Exception {
        assertThat(read(Map.of("PLUGINS_DIR", dir.toString())).directory()).isEqualTo(dir);
        assertThat(read(Map.of("PLUGINS_DIR", dir.resolve("not-yet").toString())).directory()).isEqualTo(dir.resolve("not-yet"));
    }

    @Test
    void hubCatalogUrl_isAnHttpUrlAFileUrlOrAnAbsoluteDirectory_overridingTheBuiltInHub() throws Exception {
        assertThat(read(Map.of("HUB_CATALOG_URL", "https://hub.example.com/catalog/")).hub())
                .isEqualTo(new Settings.HubSource.At("https://hub.example.com/catalog/"));
        assertThat(read(Map.of("HUB_CATALOG_URL", "/srv/hub")).hub()).isEqualTo(new Settings.HubSource.At("/srv/hub"));
        assertThat(read(Map.of("HUB_CATALOG_URL", "file:///srv/hub/index.json")).hub())
                .isEqualTo(new Settings.HubSource.At("file:///srv/hub/index.json"));
        assertThatThrownBy(() -> read(Map.of("HUB_CATALOG_URL", "hub.example.com")))
                .hasMessageContaining("HUB_CATALOG_URL must be an http(s) URL").hasMessageContaining("(or builtin, the default, or off)");
        assertThatThrownBy(() -> read(Map.of("HUB_CATALOG_URL", "https:///nohost"))).hasMessageContaining("must name a host");
        assertThatThrownBy(() -> read(Map.of("HUB_CATALOG_URL", "ftp://reader:hub-pass-123@hub.example.com/")))
                .hasMessageContaining("HUB_CATALOG_URL must be an http(s) URL").hasMessageNotContaining("hub-pass-123");
    }

    @ParameterizedTest
    @ValueSource(strings = {"off", "OFF", "none", "None", "disabled", "DISABLED", " off "})
    void hubCatalogUrl_theseTurnTheHubOff_keepingTheValueAsWritten(String value) throws Exception {
        assertThat(read(Map.of("HUB_CATALOG_URL", value)).hub()).isEqualTo(new Settings.HubSource.Off(value.trim()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"builtin", "BuiltIn", "built-in", ""})
    void hubCatalogUrl_builtinOrBlank_isTheBuiltInHub_asUnset(String value) throws Exception {
        assertThat(read(Map.of("HUB_CATALOG_URL", value)).hub()).isEqualTo(new Settings.HubSource.BuiltIn());
    }

    @ParameterizedTest
    @ValueSource(strings = {"of", "no", "false", "disable", "offline"})
    void hubCatalogUrl_aWordThatIsNeitherOffNorAHub_refusesTheStart(String value) {
        // "no" or "false" may have meant off, but only the documented words turn the hub off; nothing is guessed
        assertThatThrownBy(() -> read(Map.of("HUB_CATALOG_URL", value))).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("HUB_CATALOG_URL must be an http(s) URL, a file: URL or an absolute directory")
                .hasMessageContaining("(or builtin, the default, or off)")
                .hasMessageContaining("got '" + value + "'");
    }

    @Test
    void pathsAreTakenAsGiven() throws Exception {
        Settings.Plugins plugins = read(Map.of("PLUGINS_DIR", "/opt/omcp/plugins", "PLUGIN_TRUST_ROOT", "/etc/omcp/trust.pem"));
        assertThat(plugins.directory()).isEqualTo(Path.of("/opt/omcp/plugins"));
        assertThat(plugins.trustRoot()).isEqualTo(Optional.of(Path.of("/etc/omcp/trust.pem")));
    }
}
