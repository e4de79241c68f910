package dev.omcp.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code omcp}: the launcher's root command; without a subcommand it serves. */
@Command(
        name = "omcp",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "OMCP: an observability gateway for AI agents over the Model Context Protocol.",
        subcommands = {ServeCommand.class, DemoCommand.class, PluginCommand.class, AuditCommand.class, HashPasswordCommand.class, AotTrainCommand.class},
        exitCodeListHeading = OmcpCommand.EXIT_CODES_HEADING,
        exitCodeList = {OmcpCommand.EXIT_OK, OmcpCommand.EXIT_FAILURE, OmcpCommand.EXIT_USAGE, OmcpCommand.EXIT_BUG,
                OmcpCommand.EXIT_FORCED},
        footerHeading = "%nConfiguration:%n",
        footer = OmcpCommand.CONFIGURATION)
public final class OmcpCommand implements Callable<Integer> {
    // One wording of the exit codes for every command's help: scripts and CI branch on them.
    static final String EXIT_CODES_HEADING = "%nExit codes:%n";
    static final String EXIT_OK = "0:success; serve and demo: stopped by SIGTERM or SIGINT after draining";
    static final String EXIT_FAILURE = "1:failure: invalid settings (all listed), a refused start (port in use...), a failed command";
    static final String EXIT_USAGE = "2:usage error: unknown command or option, missing argument";
    static final String EXIT_BUG = UnexpectedFailure.EXIT_CODE + ":a bug in OMCP: one line names it and the command, the stack trace "
            + "follows (please report it)";
    static final String EXIT_FORCED = "130/143:a second SIGINT/SIGTERM, 1 s or more after the first, stopped serve or demo without waiting "
            + "for the drain (one within that second counts as the same request)";
    static final String CONFIGURATION = "The gateway reads environment variables (HOST, PORT, OMCP_*), listed in docs/configuration.md. "
            + "An invalid value stops the start with every problem listed; an unknown OMCP_* name is logged as a warning.";

    /** The command line the launcher runs: picocli's, with the usage hint for {@code version} and the one line before a bug's trace. */
    public static CommandLine commandLine() {
        CommandLine line = new CommandLine(new OmcpCommand());
        line.setParameterExceptionHandler(new VersionCommandHint(line.getParameterExceptionHandler()));
        line.setExecutionExceptionHandler(new UnexpectedFailure());
        return line;
    }

    @Override
    public Integer call() {
        return new ServeCommand().call();
    }
}
