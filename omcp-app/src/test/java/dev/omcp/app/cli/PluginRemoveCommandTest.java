package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.config.YamlSourceStore;
import dev.omcp.adapters.storage.plugins.FilesystemPluginStore;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.core.plugins.PluginRemoval;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code omcp plugin remove <name> [--force]}: removes for the next start, refusing while the sources file uses the plugin. */
class PluginRemoveCommandTest {
    @TempDir
    Path dir;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    @RegisterExtension
    final CapturedLog sourcesLog = CapturedLog.of(YamlSourceStore.class);
    @RegisterExtension
    final CapturedLog storeLog = CapturedLog.of(FilesystemPluginStore.class);
    @RegisterExtension
    final CapturedLog removalLog = CapturedLog.of(PluginRemoval.class);

    private Path plugins() {
        return dir.resolve("plugins");
    }

    private void installTempo() throws IOException {
        installTempo("tempo");
    }

    private static Path reference() {
        return Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));
    }

    private void installTempo(String directory) throws IOException {
        Path from = reference().resolve("plugins/tempo");
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path path : walk.toList()) {
                Path target = plugins().resolve(directory).resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    private int run(String sourcesYaml, String... args) throws Exception {
        return run(Map.of("PLUGIN_TRUST_ROOT", reference().resolve("trust-root.pem").toString()), sourcesYaml, args);
    }

    private int run(Map<String, String> env, String sourcesYaml, String... args) throws Exception {
        Path sources = Files.writeString(dir.resolve("sources.yaml"), sourcesYaml);
        Map<String, String> all = new java.util.HashMap<>(env);
        all.putAll(Map.of("PLUGINS_DIR", plugins().toString(), "CONFIG_PATH", sources.toString()));
        Settings settings = SettingsReader.read(all);
        PluginRemoveCommand command = new PluginRemoveCommand();
        new CommandLine(command).parseArgs(args);
        return command.run(settings, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void anUnusedPlugin_isRemoved_andTheOutputSaysToRestart() throws Exception {
        installTempo();

        int status = run("sources: []\n", "tempo");

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith("removed tempo 0.1.0-SNAPSHOT from " + plugins().resolve("tempo"))
                .contains("restart the gateway to unload it");
        try (Stream<Path> left = Files.list(plugins())) {
            // the change lock's file stays for good: it holds no plugin
            assertThat(left).extracting(f -> f.getFileName().toString()).containsExactly(".omcp-install.lock");
        }
    }

    @Test
    void whileVerificationIsOn_theVersionIsReadOnlyFromAManifestWhoseSignatureVerifies() throws Exception {
        installTempo();

        int status = run(Map.of(), "sources: []\n", "tempo");

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).as("no trust root: the manifest is not parsed, the removal goes ahead")
                .startsWith("removed tempo unknown from " + plugins().resolve("tempo"));
    }

    @Test
    void aPluginTheSourcesFileUses_isRefusedNamingTheSources_untilForced() throws Exception {
        installTempo();
        String sources = "sources:\n  - name: traces\n    type: tempo\n    url: http://tempo.example:3200\n";

        int refused = run(sources, "tempo");

        assertThat(refused).isEqualTo(1);
        assertThat(err.toString()).startsWith("omcp: remove refused (in use): ").contains("source(s) traces").contains("--force")
                .doesNotContain("force=true");
        assertThat(plugins().resolve("tempo/manifest.json")).exists();

        int forced = run(sources, "tempo", "--force");

        assertThat(forced).isZero();
        assertThat(out.toString()).contains("sources without a connector at the next start: traces");
        assertThat(plugins().resolve("tempo")).doesNotExist();
    }

    @Test
    void aVersionedDirectoryTheSourcesFilePins_isRefusedEvenForced_sayingToTakeThePinOutFirst_thenItIsRemoved() throws Exception {
        installTempo("tempo-0.1.0-SNAPSHOT");
        String pinned = "sources: []\nplugins:\n  - name: tempo\n    version: 0.1.0-SNAPSHOT\n";

        for (String[] args : List.of(new String[] {"tempo-0.1.0-SNAPSHOT"}, new String[] {"tempo-0.1.0-SNAPSHOT", "--force"})) {
            assertThat(run(pinned, args)).as(String.join(" ", args)).isEqualTo(1);
        }

        assertThat(err.toString()).startsWith("omcp: remove refused (pinned): 'tempo-0.1.0-SNAPSHOT' is the versioned directory the "
                + "sources file pins (plugins: name tempo, version 0.1.0-SNAPSHOT)").contains("Take the pin out of the sources file (CONFIG_PATH) first")
                .contains("Nothing was removed");
        assertThat(plugins().resolve("tempo-0.1.0-SNAPSHOT/manifest.json")).exists();

        assertThat(run("sources: []\n", "tempo-0.1.0-SNAPSHOT")).as("once the pin is out").isZero();
        assertThat(plugins().resolve("tempo-0.1.0-SNAPSHOT")).doesNotExist();
    }

    @Test
    void aPluginsDirectoryThatCannotBeLocked_isSaidOnce_withWhatToDo_andNothingIsRemoved() throws Exception {
        installTempo();
        // what stands in the lock file's place: the lock cannot be taken, whoever runs the command
        Files.createDirectories(plugins().resolve(".omcp-install.lock"));
        // another command test of this JVM may have left the removal's outcome lines hidden (LoggingSetup):
        // this test reads them, so it logs them at the level a gateway does, and leaves the level as it was
        ch.qos.logback.classic.Logger removal = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(PluginRemoval.class);
        ch.qos.logback.classic.Level before = removal.getLevel();
        removal.setLevel(null);
        int status;
        try {
            status = run("sources: []\n", "tempo");
        } finally {
            removal.setLevel(before);
        }

        assertThat(status).isEqualTo(1);
        assertThat(err.toString().lines()).singleElement().asString()
                .startsWith("omcp: remove refused (failed): the plugins directory " + plugins() + " could not be locked for the change")
                .contains(".omcp-install.lock is not a plain file but a directory; delete " + plugins().resolve(".omcp-install.lock"))
                .contains("nothing was changed");
        // what the command shows: its line, everything the store logs, and its removal's errors (LoggingSetup)
        List<String> shown = new java.util.ArrayList<>(err.toString().lines().toList());
        shown.addAll(storeLog.messages());
        shown.addAll(removalLog.errors());
        assertThat(shown).as("one cause, said once").filteredOn(line -> line.contains("could not be locked")).hasSize(1);
        assertThat(removalLog.messages()).as("the gateway's log has it once too, as the refusal")
                .filteredOn(line -> line.contains("could not be locked")).singleElement().asString()
                .startsWith("event=plugin-remove-refused kind=FAILED");
        assertThat(plugins().resolve("tempo/manifest.json")).exists();
    }

    @Test
    void anUnknownPluginOrABuiltin_isRefused_exit1() throws Exception {
        assertThat(run("sources: []\n", "jaeger")).isEqualTo(1);
        assertThat(err.toString()).contains("remove refused (not installed): no plugin 'jaeger' is installed");

        assertThat(run("sources: []\n", "prometheus")).isEqualTo(1);
        assertThat(err.toString()).contains("remove refused (builtin): 'prometheus' is a builtin connector");
    }

    @Test
    void aMissingSourcesFile_isWarnedAboutOnce_notOncePerCheckOfTheRemoval() throws Exception {
        installTempo();
        Settings settings = SettingsReader.read(Map.of("PLUGINS_DIR", plugins().toString(), "CONFIG_PATH",
                dir.resolve("no-such-sources.yaml").toString(), "PLUGIN_TRUST_ROOT", reference().resolve("trust-root.pem").toString()));
        PluginRemoveCommand command = new PluginRemoveCommand();
        new CommandLine(command).parseArgs("tempo");

        assertThat(command.run(settings, new PrintWriter(out, true), new PrintWriter(err, true))).as(err.toString()).isZero();

        // the pins, the sources using it and those left without it were three reads of the file, and three warnings on stderr
        assertThat(sourcesLog.warnings()).filteredOn(m -> m.startsWith("event=sources-file-missing ")).hasSize(1);
    }

    @Test
    void thePluginHelpListsRemove() {
        String usage = new CommandLine(new PluginCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF);

        assertThat(usage).contains("remove");
        assertThat(new CommandLine(new PluginCommand()).getSubcommands().get("remove").getUsageMessage(CommandLine.Help.Ansi.OFF)
                .replaceAll("\\s+", " ")).contains("${PLUGINS_DIR}/<name>/").contains("--force").doesNotContain("null/");
    }
}
