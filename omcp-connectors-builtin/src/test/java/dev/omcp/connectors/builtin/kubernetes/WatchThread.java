package dev.omcp.connectors.builtin.kubernetes;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits in tests for what a watcher's own thread does: until a condition holds, at most 10 s. */
final class WatchThread {
    private WatchThread() {}

    static void eventually(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // waits for the watch thread, not for a time rule
        }
    }
}
