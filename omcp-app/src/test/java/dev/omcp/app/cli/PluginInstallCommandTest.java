package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.plugins.FilesystemPluginStore;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.core.plugins.BundleInstaller;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code omcp plugin install}: what it says when the key given on its command line cannot be used. */
class PluginInstallCommandTest {
    private static final Path REFERENCE = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));

    @TempDir
    Path dir;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    @RegisterExtension
    final CapturedLog storeLog = CapturedLog.of(FilesystemPluginStore.class);
    @RegisterExtension
    final CapturedLog installerLog = CapturedLog.of(BundleInstaller.class);

    private int install(Map<String, String> env, String... args) throws Exception {
        PluginCommand.InstallCommand command = new PluginCommand.InstallCommand();
        new CommandLine(command).parseArgs(args);
        return command.run(SettingsReader.read(env), new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void anUnusableTrustRootOption_isNamedAsTheOption_notAsTheVariableNobodySet() throws Exception {
        Path plugins = dir.resolve("plugins");
        Path missing = dir.resolve("missing.pem");

        int status = install(Map.of("PLUGINS_DIR", plugins.toString()), "tempo", "--from", REFERENCE.resolve("hub").toString(),
                "--trust-root", missing.toString());

        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).contains("install refused (no trust root)").contains("--trust-root " + missing + " is unusable")
                .contains("does not exist").doesNotContain("PLUGIN_TRUST_ROOT");
        assertThat(out.toString()).isEmpty();
        assertThat(plugins).doesNotExist();
    }

    @Test
    void anUnusableTrustRootOption_winsOverAGoodVariable_andIsStillNamed() throws Exception {
        Path notAKey = Files.writeString(dir.resolve("not-a-key.pem"), "not a key");

        int status = install(Map.of("PLUGINS_DIR", dir.resolve("plugins").toString(), "PLUGIN_TRUST_ROOT",
                REFERENCE.resolve("trust-root.pem").toString()), "tempo", "--from", REFERENCE.resolve("hub").toString(),
                "--trust-root", notAKey.toString());

        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).contains("--trust-root " + notAKey + " is unusable").doesNotContain("PLUGIN_TRUST_ROOT");
    }

    @Test
    void aPluginsDirectoryThatCannotBeLocked_isSaidOnce_withWhatToDo() throws Exception {
        Path plugins = dir.resolve("plugins");
        Files.createDirectories(plugins.resolve(".omcp-install.lock"));

        int status = install(Map.of("PLUGINS_DIR", plugins.toString(), "PLUGIN_TRUST_ROOT", REFERENCE.resolve("trust-root.pem").toString()),
                "tempo", "--from", REFERENCE.resolve("hub").toString());

        assertThat(status).isEqualTo(1);
        assertThat(err.toString().lines()).singleElement().asString()
                .startsWith("omcp: install refused (storage failed): the plugins directory " + plugins + " could not be locked")
                .contains("delete " + plugins.resolve(".omcp-install.lock")).contains("nothing was changed");
        // what the command shows: its line, everything the store logs, and its installer's errors (LoggingSetup)
        List<String> shown = new ArrayList<>(err.toString().lines().toList());
        shown.addAll(storeLog.messages());
        shown.addAll(installerLog.errors());
        assertThat(shown).as("one cause, said once").filteredOn(line -> line.contains("could not be locked")).hasSize(1);
        assertThat(out.toString()).isEmpty();
    }
}
