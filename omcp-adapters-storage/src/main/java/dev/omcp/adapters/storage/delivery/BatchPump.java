package dev.omcp.adapters.storage.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue and the worker of a sink that must never block the request path: {@link #offer} only
 * puts an item into a bounded queue; one virtual thread takes batches from it (by count or age,
 * {@link BatchWindow}) and hands each to the sink's {@link Handler}. {@link #close} stops taking
 * items, lets the worker go on for the shutdown grace, and hands what is left to
 * {@link Handler#leftAtShutdown}.
 *
 * <p>The audit sinks (webhook, S3) and the anomaly remote write share it; what a batch becomes
 * (a delivery with retries, a dead letter, a count of abandoned scores) stays with each sink.
 *
 * @param <T> what is queued
 */
public final class BatchPump<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchPump.class);
    private static final Duration POLL = Duration.ofMillis(200);

    /** What a sink does with batches; called on the pump's thread only. */
    public interface Handler<T> {
        /** Sends one batch (with the sink's own retries); interrupted when the grace ran out. */
        void deliver(List<T> batch) throws InterruptedException;

        /** Takes the items the gateway stopped before they were sent (possibly none). */
        void leftAtShutdown(List<T> items);

        /**
         * Takes a batch whose {@link #deliver} failed with an exception the sink did not expect (a
         * bug, a value the HTTP client refuses); the pump has logged it and goes on with the next.
         */
        void failed(List<T> batch, RuntimeException cause);
    }

    private final String threadName;
    private final BatchWindow window;
    private final Duration shutdownGrace;
    private final Clock clock;
    private final Handler<T> handler;
    private final BlockingQueue<T> queue;
    private final Thread worker;
    /** Held while an item goes into the queue and while {@link #close} takes the last of it: see {@link #offer}. */
    private final Object gate = new Object();
    private volatile boolean closing;
    private boolean closed;
    private volatile Instant shutdownDeadline = Instant.MAX;

    /**
     * Starts the worker thread at once.
     *
     * @param threadName the worker's name, as thread dumps show it
     */
    public BatchPump(String threadName, int capacity, BatchWindow window, Duration shutdownGrace, Clock clock, Handler<T> handler) {
        this.threadName = Objects.requireNonNull(threadName, "threadName");
        this.window = Objects.requireNonNull(window, "window");
        this.shutdownGrace = Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.handler = Objects.requireNonNull(handler, "handler");
        if (capacity < 1) {
            throw new IllegalArgumentException("queue capacity must be at least 1");
        }
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.worker = Thread.ofVirtual().name(threadName).start(this::run);
    }

    /**
     * Queues {@code item} unless the queue is full or the pump is closed; never waits for the worker.
     * The check and the put happen under one small lock that {@link #close} also takes for its last
     * drain, so an item offered while the pump closes is either in that drain (and handed to
     * {@link Handler#leftAtShutdown}) or refused here: never accepted into a queue nobody reads.
     *
     * @return whether the item was queued; on {@code false}, {@link #closing()} tells a closed pump from a full one
     */
    public boolean offer(T item) {
        synchronized (gate) {
            return !closed && queue.offer(item);
        }
    }

    /**
     * Queues every one of {@code items}, or none of them when the queue has no room for all or the
     * pump is closed: a caller that reports a refused hand-over as dropped then never counts items
     * that were in fact queued. Never waits for the worker.
     *
     * @return whether the items were queued
     */
    public boolean offerAll(List<T> items) {
        synchronized (gate) {
            // every put goes through this lock and the worker only takes, so the room seen here stays
            if (closed || queue.remainingCapacity() < items.size()) {
                return false;
            }
            for (T item : items) {
                queue.add(item);
            }
            return true;
        }
    }

    /** How many items wait in the queue now (the batch being delivered is not counted). */
    public int queued() {
        return queue.size();
    }

    /** Whether {@link #close} has begun: the sink should take no more items. */
    public boolean closing() {
        return closing;
    }

    /** Whether the shutdown grace has run out: a sink stops retrying. */
    public boolean pastShutdownDeadline() {
        return closing && clock.instant().isAfter(shutdownDeadline);
    }

    /** Whether the worker runs and {@link #close} has not begun. */
    public boolean running() {
        return !closing && worker.isAlive();
    }

    /** Stops taking items, lets the worker deliver what is queued for up to the grace, then hands over the rest. */
    @Override
    public void close() {
        if (closing) {
            return;
        }
        shutdownDeadline = clock.instant().plus(shutdownGrace);
        closing = true;
        try {
            if (!worker.join(shutdownGrace.plusSeconds(1))) {
                worker.interrupt();
                worker.join(Duration.ofSeconds(5));
            }
        } catch (InterruptedException e) {
            worker.interrupt();
            Thread.currentThread().interrupt();
        }
        List<T> rest;
        synchronized (gate) {
            closed = true;
            rest = drain();
        }
        handler.leftAtShutdown(rest);
    }

    private void run() {
        try {
            while (true) {
                T first = queue.poll(POLL.toMillis(), TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (closing) {
                        return;
                    }
                    continue;
                }
                List<T> batch = collect(first);
                if (pastShutdownDeadline()) {
                    handler.leftAtShutdown(batch);
                    continue;
                }
                try {
                    handler.deliver(batch);
                } catch (RuntimeException e) {
                    // one failed batch must not stop the worker: the batch in hand would be lost and every later
                    // item wait in the queue until shutdown; the sink keeps what failed (a dead letter, a count)
                    // the class and where it was thrown, not the message: the HTTP client's refusal of a header
                    // quotes the header's value, a credential
                    LOG.error("event=batch-delivery-failed thread={} items={} reason=\"{}\" at=\"{}\"", threadName, batch.size(),
                            e.getClass().getName(), thrownAt(e));
                    handler.failed(batch, e);
                }
            }
        } catch (InterruptedException e) {
            handler.leftAtShutdown(drain());
        } catch (RuntimeException e) {
            // a bug must not silently stop the worker while running() still says true
            LOG.error("event=batch-worker-stopped thread={} reason=\"{}\"", threadName, e.getClass().getName(), e);
            throw e;
        }
    }

    /** The first frames of {@code e}'s stack, enough to find the bug without the message. */
    private static String thrownAt(RuntimeException e) {
        StringBuilder at = new StringBuilder();
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(frames.length, 6); i++) {
            at.append(i == 0 ? "" : " < ").append(frames[i]);
        }
        return at.toString();
    }

    private List<T> collect(T first) {
        List<T> batch = new ArrayList<>();
        batch.add(first);
        Instant opened = clock.instant();
        while (!window.full(batch.size())) {
            if (closing) {
                queue.drainTo(batch, window.maxCount() - batch.size());
                break;
            }
            Duration wait = window.remaining(opened, clock.instant());
            if (wait.isZero()) {
                break;
            }
            T next;
            try {
                next = queue.poll(Math.min(wait.toMillis(), POLL.toMillis()), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                // interrupted at shutdown with a batch begun: hand the batch on (past the deadline it
                // is left at shutdown), and let the next wait see the interrupt and drain the rest
                Thread.currentThread().interrupt();
                break;
            }
            if (next != null) {
                batch.add(next);
                queue.drainTo(batch, window.maxCount() - batch.size());
            }
        }
        return batch;
    }

    private List<T> drain() {
        List<T> rest = new ArrayList<>();
        queue.drainTo(rest);
        return rest;
    }
}
