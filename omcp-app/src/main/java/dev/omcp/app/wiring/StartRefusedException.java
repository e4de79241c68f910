package dev.omcp.app.wiring;

/**
 * The gateway will not start on what the operator configured (for example an invalid
 * {@code health: thresholds:} block in the sources file). The message names every problem and
 * what to fix; it is an operator's mistake, not a bug, so it is reported without a stack trace.
 */
public final class StartRefusedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public StartRefusedException(String message) {
        super(message);
    }
}
