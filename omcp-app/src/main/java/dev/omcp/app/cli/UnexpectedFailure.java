package dev.omcp.app.cli;

import dev.omcp.sdk.text.BackendText;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * An exception a command did not expect: a bug in OMCP, not the operator's input. Refusals and
 * failures a command understands are said by the command itself, one line each, with exit status 1
 * (or 2 for usage); what reaches here was not understood, so the operator gets one line that says so
 * and which command it stopped, then the stack trace to report. Without it picocli printed the bare
 * trace, which read like the operator's mistake and exited 1, as a refusal does.
 */
public final class UnexpectedFailure implements IExecutionExceptionHandler {
    /**
     * {@code EX_SOFTWARE} of sysexits.h, an internal software error: apart from 1 (failure), 2
     * (usage), and 130/143 (signals), so a script or CI job can tell a bug from a refusal.
     */
    public static final int EXIT_CODE = 70;

    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
        return report(commandLine.getCommandSpec().qualifiedName(), e, commandLine.getErr());
    }

    /** Says on {@code err} that {@code command} stopped on a bug, then the stack trace; the exit status. */
    public static int report(String command, Throwable e, PrintWriter err) {
        // on one line: an exception message may carry a line break or an escape sequence from its input
        String message = e.getMessage() == null ? "" : ": " + BackendText.escaped(e.getMessage());
        err.println("omcp: a bug in OMCP stopped " + command + ": an unexpected " + e.getClass().getName() + message
                + "; its stack trace follows; please report it with the trace");
        e.printStackTrace(err);
        err.flush();
        return EXIT_CODE;
    }
}
