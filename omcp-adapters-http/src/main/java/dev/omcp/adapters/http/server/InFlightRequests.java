package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.mcp.InFlightTracker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Counts requests being served (HTTP requests and WebSocket messages), so shutdown can wait for them to finish. */
final class InFlightRequests implements InFlightTracker {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int count;

    @Override
    public void enter() {
        lock.lock();
        try {
            count++;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void exit() {
        lock.lock();
        try {
            count--;
            if (count <= 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    int count() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until no request is in flight or {@code timeout} passes; returns whether it is idle. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (count > 0) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = idle.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
