package dev.omcp.app.cli;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
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
 *
 * <p>A signal within {@link #SAME_REQUEST_SECONDS} s of the first is not that operator: {@code timeout},
 * systemd's {@code KillMode=control-group} and {@code kill -TERM -<pgid>} signal the process and then
 * its group microseconds apart, and reading the echo as insistence skipped the drain they asked for.
 */
final class StopSignals {
    /** How long after the first signal another one is taken as part of the same request. */
    static final long SAME_REQUEST_SECONDS = 1;

    private final CountDownLatch requested = new CountDownLatch(1);
    private final AtomicReference<Long> firstAt = new AtomicReference<>();
    private final IntConsumer halt;
    private final LongSupplier nanoTime;
    private final List<Runnable> beforeHalt = new CopyOnWriteArrayList<>();

    /** @param nanoTime a monotonic clock in nanoseconds, as {@link System#nanoTime()} */
    StopSignals(IntConsumer halt, LongSupplier nanoTime) {
        this.halt = halt;
        this.nanoTime = nanoTime;
    }

    static StopSignals install() {
        // halt, not exit: a shutdown hook still waiting on the drain must not hold the process
        StopSignals signals = new StopSignals(status -> Runtime.getRuntime().halt(status), System::nanoTime);
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
        long now = nanoTime.getAsLong();
        if (firstAt.compareAndSet(null, now)) {
            requested.countDown();
            return;
        }
        // negative when two handler threads raced and the other one took its time first: the same burst too
        if (now - firstAt.get() < TimeUnit.SECONDS.toNanos(SAME_REQUEST_SECONDS)) {
            System.err.println("omcp: SIG" + name + " again within " + SAME_REQUEST_SECONDS + " s of the first, taken as the same stop"
                    + " request (a supervisor signals the process and its group); send it again later to stop at once");
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
