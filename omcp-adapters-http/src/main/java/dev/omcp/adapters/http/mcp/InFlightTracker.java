package dev.omcp.adapters.http.mcp;

/**
 * Counts what a transport is still handling outside the HTTP server's own request tracking (the
 * messages of a WebSocket), so a shutdown waits for them within the same grace as for HTTP requests.
 */
public interface InFlightTracker {
    /** One more message is being handled. */
    void enter();

    /** A message counted by {@link #enter} has been handled. */
    void exit();

    /** Counts nothing: for a transport served without a graceful shutdown (tests, embedders of the transport alone). */
    static InFlightTracker untracked() {
        return new InFlightTracker() {
            @Override
            public void enter() {
                // nothing waits for these messages
            }

            @Override
            public void exit() {
                // nothing waits for these messages
            }
        };
    }
}
