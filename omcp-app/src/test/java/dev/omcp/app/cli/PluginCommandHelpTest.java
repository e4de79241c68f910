package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.Variables;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code omcp plugin --help} and {@code omcp plugin install --help} name the install directory as the variable it is. */
class PluginCommandHelpTest {
    private static final String INTO = "${PLUGINS_DIR}/<name>/";

    @Test
    void theInstallHelpNamesPluginsDirAndItsDefault_whateverTheEnvironmentHolds() {
        // picocli interpolates ${NAME} in descriptions from the environment: unescaped, an unset
        // PLUGINS_DIR printed "into null/<name>/" and a set one printed its value as if it were fixed
        String usage = new CommandLine(new PluginCommand()).getSubcommands().get("install").getUsageMessage(CommandLine.Help.Ansi.OFF);

        assertThat(usage.replaceAll("\\s+", " "))
                .contains("install a connector into " + INTO + " (PLUGINS_DIR defaults to " + Variables.PLUGINS_DIR.defaultValue() + ")")
                .doesNotContain("null/");
    }

    @Test
    void pluginWithoutACommand_saysWhichOnStandardError_andExits2() {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine line = new CommandLine(new PluginCommand());
        line.setOut(new java.io.PrintWriter(out, true));
        line.setErr(new java.io.PrintWriter(err, true));

        int status = line.execute();

        assertThat(status).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).startsWith("omcp: plugin needs a command: list, info, install, remove or verify")
                .contains("Usage: plugin");
    }

    @Test
    void thePluginHelpListsInstallWithTheSameDirectory() {
        String usage = new CommandLine(new PluginCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF);

        assertThat(usage.replaceAll("\\s+", " ")).contains("connector into " + INTO).doesNotContain("null/");
    }
}
