package dev.omcp.adapters.http.server;

import io.javalin.router.HandlerWrapper;

/**
 * Carries an {@link Error} a route threw (an {@code AssertionError}, a {@code LinkageError}, a
 * {@code StackOverflowError}, from an embedder's authentication, interceptor or session store) to the
 * server's mapping of exceptions: Javalin maps exceptions only, and answered an Error with HTTP 500 and an
 * empty body, where every other bug gets a JSON body with an error id the log line carries.
 *
 * <p>An Error that leaves the JVM unable to go on (an {@code OutOfMemoryError}, an {@code InternalError})
 * is not carried: answering and logging it would need the memory or the state that is gone, and it must
 * not read as one request's bug. A {@code StackOverflowError} is carried: its stack is unwound by now.
 */
final class HandlerError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private HandlerError(Error cause) {
        // no stack trace of its own: the cause's is the one that matters, and is the one logged
        super("a route threw " + cause.getClass().getName(), cause, false, false);
    }

    /** Wraps each route's handler so the Errors it throws that a request may survive reach the exception mapping. */
    static HandlerWrapper wrapper() {
        return endpoint -> ctx -> {
            try {
                endpoint.handler.handle(ctx);
            } catch (Error e) {
                if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
                    throw e;
                }
                throw new HandlerError(e);
            }
        };
    }

    /** What the log line of a bug should show: the Error itself, not its carrier. */
    static Throwable bug(Exception e) {
        return e instanceof HandlerError ? e.getCause() : e;
    }
}
