package dev.omcp.core.sources;

import java.util.Objects;

/**
 * The calls running on one live source's connector, so that replacing or removing the source closes
 * the connector only once they end.
 *
 * <p>Why: closing at once failed the calls in flight, and any call that had picked the connector just
 * before the change, with the closed client's bare "closed"; and the builtin connectors' close (the
 * JDK client's) waits for the requests in flight, so the change itself, and every change queued
 * behind it, waited for the slowest call on the old source. Now the change only retires the
 * connector; the last call to leave closes it, on a thread of its own so no tool call waits for it.
 * A call that arrives after the retirement is refused ({@link #enter()} is false) and never reaches
 * the connector. Thread-safe; the lock is held for a few field updates only, never around a call or
 * a close.
 */
public final class ConnectorUse {
    private final Runnable close;
    private int running;
    private boolean retired;
    private boolean closed;

    /** @param close closes the connector after the retirement, once no call runs on it; catches and logs what it throws */
    ConnectorUse(Runnable close) {
        this.close = Objects.requireNonNull(close, "close");
    }

    /** For a connector no registry owns (tests, connectors wrapped outside one): calls always enter, nothing is closed. */
    public static ConnectorUse unowned() {
        return new ConnectorUse(() -> { });
    }

    /** A call starts on the connector; false when the source was replaced or removed meanwhile (then it must not call). */
    public synchronized boolean enter() {
        if (retired) {
            return false;
        }
        running++;
        return true;
    }

    /** A call that {@link #enter() entered} ended, however it ended; the last one out of a retired connector closes it. */
    public void leave() {
        boolean closeNow;
        synchronized (this) {
            if (running == 0) {
                throw new IllegalStateException("a call left a connector it never entered");
            }
            running--;
            closeNow = takeClose();
        }
        if (closeNow) {
            // not on the caller's thread: the tool call has its answer and must not wait for a close
            Thread.ofVirtual().name("omcp-connector-close").start(close);
        }
    }

    /**
     * The source was replaced or removed: no call enters any more, and the connector is closed now
     * (on this thread) when none runs, else by the last call to leave.
     */
    void retire() {
        boolean closeNow;
        synchronized (this) {
            retired = true;
            closeNow = takeClose();
        }
        if (closeNow) {
            close.run();
        }
    }

    /** Whether this is the moment to close: retired, idle, not closed yet. Call under the lock. */
    private boolean takeClose() {
        if (retired && running == 0 && !closed) {
            closed = true;
            return true;
        }
        return false;
    }
}
