package dev.omcp.app.cli;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
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
    private final IntConsumer halt;
    private final List<Runnable> beforeHalt = new CopyOnWriteArrayList<>();

    StopSignals(IntConsumer halt) {
        this.halt = halt;
    }

    static StopSignals install() {
        // halt, not exit: a shutdown hook still waiting on the drain must not hold the process
        StopSignals signals = new StopSignals(status -> Runtime.getRuntime().halt(status));
        Signal.handle(new Signal("TERM"), signal -> signals.received(signal.getName(), signal.getNumber()));
        Signal.handle(new Signal("INT"), signal -> signals.received(signal.getName(), signal.getNumber()));
        return signals;
    }

    /**
     * Runs {@code cleanup} when a second signal stops the process at once: what a graceful stop
     * would remove (the demo's directory: its sources file, unpacked plugin and datasets) must not
     * pile up in the temporary directory because the operator did not wait. It should be quick; a failure is reported, not thrown.
     */
    void beforeHalt(Runnable cleanup) {
        beforeHalt.add(cleanup);
    }

    void received(String name, int number) {
        if (received.incrementAndGet() == 1) {
            requested.countDown();
            return;
        }
        System.err.println("omcp: a second SIG" + name + ": stopping now, without waiting for in-flight requests");
        for (Runnable cleanup : beforeHalt) {
            try {
                cleanup.run();
            } catch (RuntimeException e) {
                System.err.println("omcp: could not clean up before stopping: " + e);
            }
        }
        System.err.flush();
        halt.accept(128 + number);
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
