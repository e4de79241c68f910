package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.SettingsReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code omcp plugin verify <dir>}: what it says when there is no plugin to verify. */
class PluginVerifyCommandTest {
    @TempDir
    Path dir;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int verify(String... args) throws Exception {
        Path trustRoot = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"))
                .resolve("trust-root.pem");
        PluginCommand.VerifyCommand command = new PluginCommand.VerifyCommand();
        new CommandLine(command).parseArgs(args);
        return command.run(SettingsReader.read(Map.of("PLUGIN_TRUST_ROOT", trustRoot.toString(), "PLUGINS_DIR",
                dir.resolve("plugins").toString())), new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void aMissingDirectory_isNamedAsMissing_once_andNoCheckIsListed() throws Exception {
        Path missing = dir.resolve("tempo");

        int status = verify(missing.toString());

        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("omcp: " + missing + " does not exist; pass the plugin's directory, the one holding its "
                + "package.json" + System.lineSeparator());
        assertThat(out.toString()).isEqualTo("verdict: REFUSED (no plugin directory)" + System.lineSeparator());
    }

    @Test
    void aFileInsteadOfADirectory_isNamedAsSuch() throws Exception {
        Path file = Files.writeString(dir.resolve("tempo.tgz"), "not a directory");

        int status = verify(file.toString());

        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).startsWith("omcp: " + file + " is not a directory; pass the plugin's directory");
    }

    @Test
    void aDirectoryWithoutAPlugin_saysWhyEachCheckDidNotRun_withoutStuttering() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));

        int status = verify(empty.toString());

        assertThat(status).isEqualTo(1);
        assertThat(out.toString()).contains("manifest: FAILED: no connector plugin here")
                .contains("integrity: NOT CHECKED: no connector plugin found")
                .contains("signature: NOT CHECKED: no connector plugin found")
                .doesNotContain("NOT CHECKED: not checked").contains("verdict: REFUSED");
    }
}
