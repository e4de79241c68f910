package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** What an operator or a CI job sees from the root command: help, usage errors and their exit codes. */
class OmcpCommandLineTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return run(OmcpCommand.commandLine(), args);
    }

    private int run(CommandLine line, String... args) {
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    /** A command with a bug: what no command of OMCP is meant to do, and what the launcher must still say well. */
    @Command(name = "explode")
    static final class Exploding implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("the index went\nnegative");
        }
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
        assertThat(help).contains("until SIGTERM or SIGINT").contains("Exit codes:")
                .contains("130/143 a second SIGINT/SIGTERM, 1 s or more after the first")
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
    void version_isAUsageError_exit2_pointingToTheVersionOption() {
        assertThat(run("version")).isEqualTo(2);
        assertThat(err.toString()).contains("'version'").contains("Did you mean: omcp --version?").doesNotContain("omcp serve");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void anUnexpectedException_isOneLineSayingItIsABug_thenTheTrace_exit70() {
        CommandLine line = OmcpCommand.commandLine();
        line.getSubcommands().get("plugin").addSubcommand(new Exploding());

        assertThat(run(line, "plugin", "explode")).isEqualTo(UnexpectedFailure.EXIT_CODE).isEqualTo(70);

        String[] lines = err.toString().split("\\R");
        assertThat(lines[0]).isEqualTo("omcp: a bug in OMCP stopped omcp plugin explode: an unexpected java.lang.IllegalStateException: "
                + "the index went\\nnegative; its stack trace follows; please report it with the trace");
        assertThat(lines[1]).startsWith("java.lang.IllegalStateException: the index went");
        assertThat(err.toString()).contains("at dev.omcp.app.cli.OmcpCommandLineTest$Exploding.call(");
    }

    @Test
    void theHelp_listsTheBugExitCode() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString().replaceAll("\\s+", " ")).contains(" 70 a bug in OMCP");
    }

    @Test
    void anUnknownOption_isAUsageError_exit2_withTheUsage() {
        assertThat(run("serve", "--port", "8080")).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown options: '--port', '8080'").contains("Usage: omcp serve");
        assertThat(run("--bogus")).isEqualTo(2);
    }
}
