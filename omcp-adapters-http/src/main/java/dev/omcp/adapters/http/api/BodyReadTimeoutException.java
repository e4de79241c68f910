package dev.omcp.adapters.http.api;

import java.io.IOException;

/**
 * A request body did not arrive within its deadline ({@link BodyDeadlines}). An {@link IOException},
 * so it leaves every route that reads a body the way a broken connection does; the server answers it
 * with 408 and closes the connection. The message names sizes and times, never body content.
 */
public final class BodyReadTimeoutException extends IOException {
    private final long arrivedBytes;
    private final long elapsedMillis;

    BodyReadTimeoutException(String message, long arrivedBytes, long elapsedMillis, Throwable cause) {
        super(message, cause);
        this.arrivedBytes = arrivedBytes;
        this.elapsedMillis = elapsedMillis;
    }

    /** How many body bytes had arrived when the deadline passed. */
    public long arrivedBytes() {
        return arrivedBytes;
    }

    /** How long the body had been read when it was given up. */
    public long elapsedMillis() {
        return elapsedMillis;
    }
}
