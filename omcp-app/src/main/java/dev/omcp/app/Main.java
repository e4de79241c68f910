package dev.omcp.app;

import dev.omcp.app.cli.OmcpCommand;
import picocli.CommandLine;

/** Entry point of the launcher jar. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the process exit code. */
    public static int run(String... args) {
        return new CommandLine(new OmcpCommand()).execute(args);
    }
}
