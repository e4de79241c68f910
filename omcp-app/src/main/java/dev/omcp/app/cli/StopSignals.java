package dev.omcp.app.cli;

import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as a request to stop, taken over from the JVM before anything starts.
 *
 * <p>Handling the signals ourselves (not a shutdown hook) lets the process drain and exit 0. Taking
 * them first means a signal that arrives while the gateway is still starting stops it gracefully
 * once it listens, instead of killing the JVM with status 143 and leaving its files behind.
 */
final class StopSignals {
    private final CountDownLatch requested = new CountDownLatch(1);

    private StopSignals() {}

    static StopSignals install() {
        StopSignals signals = new StopSignals();
        Signal.handle(new Signal("TERM"), signal -> signals.requested.countDown());
        Signal.handle(new Signal("INT"), signal -> signals.requested.countDown());
        return signals;
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
