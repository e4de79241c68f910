package dev.omcp.ports.auth;

/**
 * The store shared by replicas (lockout, session blocklist) did not answer: down, too slow, or
 * every connection busy. Callers fail closed: a session whose blocklist entry cannot be read is not
 * accepted, and a login whose lock cannot be read is refused; the HTTP layer answers 503 with
 * {@code Retry-After}. A distinct type, not an {@link IllegalStateException}, so it is never taken
 * for a full blocklist. The message names the store without credentials and says what to check.
 */
public final class SharedStateUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SharedStateUnavailableException(String message) {
        super(message);
    }

    public SharedStateUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
