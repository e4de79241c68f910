package dev.omcp.app.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as a request to stop, taken over from the JVM before anything starts.
 *
 * <p>Handling the signals ourselves (not a shutdown hook) lets the process drain and exit 0. Taking
 * them first means a signal that arrives while the gateway is still starting stops it gracefully
 * once it listens, instead of killing the JVM with status 143 and leaving its files behind.
 *
 * <p>A second signal stops the process at once with 128 + the signal's number (130 for a second
 * Ctrl+C), as shells do: an operator who does not want to wait out the drain (up to
 * {@code OMCP_SHUTDOWN_GRACE}, 300 s at most) should not need {@code kill -9}.
 */
final class StopSignals {
    private final CountDownLatch requested = new CountDownLatch(1);
    private final AtomicInteger received = new AtomicInteger();

    private StopSignals() {}

    static StopSignals install() {
        StopSignals signals = new StopSignals();
        Signal.handle(new Signal("TERM"), signals::received);
        Signal.handle(new Signal("INT"), signals::received);
        return signals;
    }

    private void received(Signal signal) {
        if (received.incrementAndGet() == 1) {
            requested.countDown();
            return;
        }
        System.err.println("omcp: a second SIG" + signal.getName() + ": stopping now, without waiting for in-flight requests");
        System.err.flush();
        // halt, not exit: a shutdown hook still waiting on the drain must not hold the process
        Runtime.getRuntime().halt(128 + signal.getNumber());
    }

    /** Blocks until a stop signal came (at once if one came already) or the thread is interrupted. */
    void await() {
        try {
            requested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
