package dev.omcp.core.sources;

import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action at a deadline unless it is cancelled first, built for deadlines that are almost
 * always cancelled: every fan-out arms one, and nearly every fan-out finishes long before it.
 *
 * <p>Why not a timed wait or a {@code ScheduledExecutorService}: both wake their timer thread
 * whenever a new deadline becomes the earliest and again when it is cancelled. With calls one at a
 * time, every call's deadline is the earliest, so each call paid two thread wake-ups on its critical
 * path; on the 2-core virtual machines the benchmarks run on a wake-up costs tens of microseconds
 * (docs/benchmarks.md). Here cancelling only marks the entry, and arming wakes the timer thread only
 * when the new deadline is earlier than the one it sleeps until. The thread drops cancelled entries
 * when it wakes, so under steady traffic it wakes about once per timeout, not twice per call.
 *
 * <p>Memory stays bounded by the calls in flight: cancelled entries are removed in one sweep once
 * they outnumber the live ones (and there are more than {@value #SWEEP_AT}).
 *
 * <p>The thread ends once nothing was armed for {@link #IDLE} and the next deadline starts another,
 * so a service that embeds the gateway and closed it is left with no thread of ours (and no class
 * loader of its held by one) a minute later.
 */
final class DeadlineTimer {
    private static final Logger LOG = LoggerFactory.getLogger(DeadlineTimer.class);
    private static final int SWEEP_AT = 1024;
    /** How long the timer thread waits with nothing armed before it ends. */
    static final Duration IDLE = Duration.ofSeconds(60);

    /** The timer fan-outs share; its thread starts with the first deadline and ends when idle. */
    static final DeadlineTimer SHARED = new DeadlineTimer("omcp-fan-out-deadlines");

    private final String threadName;
    private final long idleNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition earlier = lock.newCondition();
    private final PriorityQueue<Armed> queue = new PriorityQueue<>(Comparator.comparingLong((Armed a) -> a.at).thenComparingLong(a -> a.sequence));
    private long sequence;
    private boolean started;
    /** Whether the timer thread waits without a deadline (nothing armed when it looked). */
    private boolean waitingForever = true;
    /** The deadline the timer thread waits for, when {@link #waitingForever} is false. */
    private long waitingUntil;
    private int sweepAt = SWEEP_AT;

    DeadlineTimer(String threadName) {
        this(threadName, IDLE);
    }

    /** A timer whose thread ends after {@code idle} with nothing armed (tests shorten it). */
    DeadlineTimer(String threadName, Duration idle) {
        this.threadName = Objects.requireNonNull(threadName, "threadName");
        this.idleNanos = idle.toNanos();
    }

    /** One armed deadline; {@link #cancel()} is a field write, never a wake-up. */
    static final class Armed {
        private final long at;
        private final long sequence;
        /** Null once cancelled: a cancelled entry waits in the queue until swept, and must not keep what
         * the action captured (a fan-out's futures and their answers) alive until then. */
        private volatile Runnable action;

        private Armed(long at, long sequence, Runnable action) {
            this.at = at;
            this.sequence = sequence;
            this.action = action;
        }

        /** Keeps the action from running and lets go of it; harmless after it ran. */
        void cancel() {
            action = null;
        }

        private boolean cancelled() {
            return action == null;
        }
    }

    /**
     * Arms {@code action} to run on the timer thread at {@code atNanos} ({@link System#nanoTime()}
     * time). The action must be short and must not block: it runs on the one timer thread.
     */
    Armed schedule(long atNanos, Runnable action) {
        Objects.requireNonNull(action, "action");
        lock.lock();
        try {
            Armed armed = new Armed(atNanos, sequence++, action);
            queue.add(armed);
            if (!started) {
                Thread.ofPlatform().name(threadName).daemon(true).start(this::run);
                started = true;
            } else if (waitingForever || atNanos - waitingUntil < 0) {
                earlier.signal();
            }
            if (queue.size() > sweepAt) {
                queue.removeIf(Armed::cancelled);
                sweepAt = Math.max(SWEEP_AT, queue.size() * 2);
            }
            return armed;
        } finally {
            lock.unlock();
        }
    }

    /** How many entries are held, cancelled ones included (for tests). */
    int held() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (true) {
            Armed due = null;
            lock.lock();
            try {
                Armed head;
                while ((head = queue.peek()) != null && head.cancelled()) {
                    queue.poll();
                }
                if (head == null) {
                    waitingForever = true;
                    if (earlier.awaitNanos(idleNanos) <= 0 && queue.isEmpty()) {
                        // idle: end, and let the next schedule() start a thread again (under this lock)
                        started = false;
                        return;
                    }
                } else {
                    long wait = head.at - System.nanoTime();
                    if (wait <= 0) {
                        due = queue.poll();
                    } else {
                        waitingForever = false;
                        waitingUntil = head.at;
                        earlier.awaitNanos(wait);
                    }
                }
            } catch (InterruptedException e) {
                // Nothing interrupts this thread on purpose; keep serving the deadlines of running calls.
                LOG.debug("the fan-out deadline thread was interrupted; it keeps running");
            } finally {
                lock.unlock();
            }
            if (due != null) {
                fire(due);
            }
        }
    }

    private static void fire(Armed due) {
        Runnable action = due.action;
        if (action == null) {
            return; // cancelled after it was taken from the queue
        }
        due.action = null;
        try {
            action.run();
        } catch (Throwable e) {
            // A failing action must not stop the thread every other call's deadline depends on: not even
            // an Error. An OutOfMemoryError while a fan-out's deadline fired (a heap filled for a moment)
            // once ended this thread for good, and with it every later deadline: tool calls whose
            // source hung then waited forever, long after the memory was back.
            LOG.error("a fan-out deadline action failed; other deadlines are unaffected", e);
        }
    }
}
