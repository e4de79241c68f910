package dev.omcp.core.sources;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

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
 * the connector. Thread-safe and lock-free.
 */
public final class ConnectorUse {
    /** The bit of {@link #state} set at the retirement; the bits below it count the calls running. */
    private static final long RETIRED = 1L << 62;

    private final Runnable close;
    /**
     * Retired flag and running count in one word, so a call's enter and leave are one compare-and-set
     * each: every backend call of every tool passes here, and a monitor that 32 calls contend for
     * parks virtual threads.
     */
    private final AtomicLong state = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** @param close closes the connector after the retirement, once no call runs on it; catches and logs what it throws */
    ConnectorUse(Runnable close) {
        this.close = Objects.requireNonNull(close, "close");
    }

    /** For a connector no registry owns (tests, connectors wrapped outside one): calls always enter, nothing is closed. */
    public static ConnectorUse unowned() {
        return new ConnectorUse(() -> { });
    }

    /** A call starts on the connector; false when the source was replaced or removed meanwhile (then it must not call). */
    public boolean enter() {
        while (true) {
            long s = state.get();
            if ((s & RETIRED) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 1)) {
                return true;
            }
        }
    }

    /** A call that {@link #enter() entered} ended, however it ended; the last one out of a retired connector closes it. */
    public void leave() {
        long s = state.getAndUpdate(current -> (current & ~RETIRED) == 0 ? current : current - 1);
        if ((s & ~RETIRED) == 0) {
            throw new IllegalStateException("a call left a connector it never entered");
        }
        if (s == (RETIRED | 1) && closed.compareAndSet(false, true)) {
            // not on the caller's thread: the tool call has its answer and must not wait for a close
            Thread.ofVirtual().name("omcp-connector-close").start(close);
        }
    }

    /**
     * The source was replaced or removed: no call enters any more, and the connector is closed now
     * (on this thread) when none runs, else by the last call to leave.
     */
    void retire() {
        long s = state.getAndUpdate(current -> current | RETIRED);
        if ((s & ~RETIRED) == 0 && closed.compareAndSet(false, true)) {
            close.run();
        }
    }
}
