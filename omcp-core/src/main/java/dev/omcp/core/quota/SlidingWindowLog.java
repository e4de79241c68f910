package dev.omcp.core.quota;

import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.ports.ratelimit.RateLimit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The admissions of one credential within the last {@link RateLimit#WINDOW_MS}: a sliding log, so
 * the count is exact (every request admitted in the last 60 s, none older) and so is the time until
 * the next admission (when the oldest one leaves the window). A fixed window would admit twice the
 * limit across a window's edge; a token bucket would only estimate the retry.
 *
 * <p>The log is a ring of admission times with a count per time, so requests admitted within the same
 * millisecond share one entry. It holds at most as many entries as the limit, and never more than
 * the milliseconds of a window, also when the limit is disabled and requests are only counted: its
 * memory is bounded whatever a client sends. It grows as admissions come and shrinks as they leave.
 *
 * <p>Thread-safe: each log has its own lock, held for a few array operations, so credentials never
 * wait for each other. A {@link ReentrantLock} rather than {@code synchronized}, which pins the
 * virtual thread that waits for it on Java 21.
 */
final class SlidingWindowLog {
    private static final int INITIAL_CAPACITY = 8;
    private static final long WINDOW = RateLimit.WINDOW_MS;

    private final RateLimit limit;
    /** The largest the ring may grow: one entry per admission up to the limit, one per millisecond of the window. */
    private final int maxCapacity;
    private final ReentrantLock lock = new ReentrantLock();
    private long[] times;
    private int[] counts;
    /** Index of the oldest entry. */
    private int head;
    /** Entries in use. */
    private int size;
    /** Admissions in the window: the sum of the entries' counts. */
    private long total;

    SlidingWindowLog(RateLimit limit) {
        this.limit = limit;
        this.maxCapacity = (int) Math.min(limit.requestsPerMinute().orElse(Integer.MAX_VALUE), WINDOW);
        int initial = Math.min(INITIAL_CAPACITY, maxCapacity);
        this.times = new long[initial];
        this.counts = new int[initial];
    }

    /** Counts one request at {@code nowMillis} when the limit admits it. */
    RateDecision admit(long nowMillis) {
        lock.lock();
        try {
            long now = notBeforeNewest(nowMillis);
            evict(now);
            if (limit.isDisabled()) {
                append(now);
                return new RateDecision.Unlimited();
            }
            int max = limit.requestsPerMinute().getAsInt();
            if (total >= max) {
                // the oldest admission leaves the window at its time + WINDOW: then one place is free
                return new RateDecision.Limited(max, times[head] + WINDOW - now, WINDOW);
            }
            append(now);
            return new RateDecision.Admitted(max, (int) (max - total), WINDOW);
        } finally {
            lock.unlock();
        }
    }

    /** The admissions within the window that ends at {@code nowMillis}. */
    long count(long nowMillis) {
        lock.lock();
        try {
            evict(notBeforeNewest(nowMillis));
            return total;
        } finally {
            lock.unlock();
        }
    }

    RateLimit limit() {
        return limit;
    }

    /**
     * A clock set back (a manual clock, an NTP step of the system clock) must not reorder the log:
     * a time before the newest entry counts as that entry's time. Entries then leave the window a
     * little later than they might, never earlier, so the limit is never exceeded.
     */
    private long notBeforeNewest(long nowMillis) {
        return size == 0 ? nowMillis : Math.max(nowMillis, times[index(size - 1)]);
    }

    /** Drops the entries admitted {@link #WINDOW} or longer before {@code now}. */
    private void evict(long now) {
        while (size > 0 && times[head] <= now - WINDOW) {
            total -= counts[head];
            head = (head + 1) % times.length;
            size--;
        }
        if (size == 0) {
            head = 0;
        }
        if (times.length > INITIAL_CAPACITY && size <= times.length / 4) {
            resize(Math.max(INITIAL_CAPACITY, times.length / 2));
        }
    }

    private void append(long now) {
        total++;
        if (size > 0 && times[index(size - 1)] == now) {
            counts[index(size - 1)]++;
            return;
        }
        if (size == times.length) {
            // never past maxCapacity: the limit bounds the entries of a limited log, the window's milliseconds any log
            resize(Math.min(maxCapacity, times.length * 2));
        }
        int tail = index(size);
        times[tail] = now;
        counts[tail] = 1;
        size++;
    }

    private void resize(int capacity) {
        long[] newTimes = new long[capacity];
        int[] newCounts = new int[capacity];
        for (int i = 0; i < size; i++) {
            newTimes[i] = times[index(i)];
            newCounts[i] = counts[index(i)];
        }
        times = newTimes;
        counts = newCounts;
        head = 0;
    }

    private int index(int offset) {
        return (head + offset) % times.length;
    }

    /** The ring's current capacity; for tests of its bound. */
    int capacity() {
        lock.lock();
        try {
            return times.length;
        } finally {
            lock.unlock();
        }
    }
}
