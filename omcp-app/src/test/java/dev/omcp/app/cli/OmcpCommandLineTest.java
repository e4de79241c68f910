package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What an operator or a CI job sees from the root command: help, usage errors and their exit codes. */
class OmcpCommandLineTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine line = new CommandLine(new OmcpCommand());
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    @Test
    void theHelp_listsTheExitCodes_andWhereTheSettingsAre() {
        assertThat(run("--help")).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains("Exit codes: 0 success").contains(" 1 failure: invalid settings").contains(" 2 usage error")
                .contains("docs/configuration.md");
    }

    @Test
    void serveHelp_saysHowItStops_andListsTheExitCodes() {
        assertThat(run("serve", "--help")).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains("until SIGTERM or SIGINT").contains("Exit codes:").contains("130/143 a second SIGINT/SIGTERM")
                .contains("docs/configuration.md")
                .doesNotContain("conformance");
    }

    @Test
    void hashPasswordHelp_saysThePasswordNeverComesFromTheCommandLine() {
        assertThat(run("hash-password", "--help")).isZero();
        assertThat(out.toString().replaceAll("\\s+", " ")).contains("never from the command line").contains("Exit codes:");
    }

    @Test
    void aMisspeltCommand_isAUsageError_exit2_withTheCommandItMeans() {
        assertThat(run("servee")).isEqualTo(2);
        assertThat(err.toString()).contains("'servee'").contains("Did you mean: omcp serve?");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void anUnknownOption_isAUsageError_exit2_withTheUsage() {
        assertThat(run("serve", "--port", "8080")).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown options: '--port', '8080'").contains("Usage: omcp serve");
        assertThat(run("--bogus")).isEqualTo(2);
    }
}
