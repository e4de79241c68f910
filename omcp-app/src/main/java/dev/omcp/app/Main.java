package dev.omcp.app;

import dev.omcp.app.cli.OmcpCommand;
import dev.omcp.app.cli.ServeCommand;
import dev.omcp.app.cli.UnexpectedFailure;
import java.io.PrintWriter;
import java.util.List;

/** Entry point of the launcher jar. */
public final class Main {
    private static final List<String> SERVE_FLAGS = List.of("--test-conformance-fixture");

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the process exit code. */
    public static int run(String... args) {
        // Start-up is measured from process start to the first answered request. Building picocli's
        // model of every subcommand costs hundreds of milliseconds of reflection, so the plain
        // serve command (what operators and containers run) skips it; everything else parses fully.
        if (isPlainServe(args)) {
            try {
                return ServeCommand.withConformanceFixture(args.length == 2).call();
            } catch (RuntimeException e) {
                // what picocli's handler does for the other commands: one line before the trace
                return UnexpectedFailure.report("omcp serve", e, new PrintWriter(System.err, true));
            }
        }
        return OmcpCommand.commandLine().execute(args);
    }

    static boolean isPlainServe(String... args) {
        if (args.length == 0) {
            return true;
        }
        if (!args[0].equals("serve") || args.length > 2) {
            return false;
        }
        return args.length == 1 || SERVE_FLAGS.contains(args[1]);
    }
}
