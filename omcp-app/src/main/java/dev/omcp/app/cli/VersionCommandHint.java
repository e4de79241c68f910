package dev.omcp.app.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code omcp version} points to {@code omcp --version}: there is no version command, and
 * picocli's guess from the command names was {@code Did you mean: omcp serve?}. Every other usage
 * error is picocli's.
 */
final class VersionCommandHint implements IParameterExceptionHandler {
    private final IParameterExceptionHandler picocli;

    VersionCommandHint(IParameterExceptionHandler picocli) {
        this.picocli = picocli;
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) throws Exception {
        if (!(e instanceof UnmatchedArgumentException unmatched) || !startsWithVersion(unmatched.getUnmatched())) {
            return picocli.handleParseException(e, args);
        }
        PrintWriter err = e.getCommandLine().getErr();
        err.println(e.getMessage());
        err.println("Did you mean: omcp --version? (there is no version command)");
        return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
    }

    private static boolean startsWithVersion(List<String> unmatched) {
        return !unmatched.isEmpty() && unmatched.getFirst().equals("version");
    }
}
