package dev.omcp.core.inspect;

import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.inspect.Observations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The newest observations in memory, when no {@code OMCP_INSPECT_FILE} is set: a ring of a fixed
 * size whose newest record replaces its oldest. Appending never waits on I/O (a short lock around an
 * array slot). Thread-safe.
 */
public final class MemoryObservations implements Observations {
    /**
     * The default size: 10,000 records, a few MiB, hours of a busy agent's calls. The window
     * ({@code OMCP_INSPECT_WINDOW}) may reach further back than the ring holds; the ring then is the limit.
     */
    public static final int DEFAULT_CAPACITY = 10_000;

    private final Observation[] ring;
    private final ReentrantLock lock = new ReentrantLock();
    private int next;
    private int size;

    public MemoryObservations() {
        this(DEFAULT_CAPACITY);
    }

    public MemoryObservations(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the ring must hold at least one record, got " + capacity);
        }
        this.ring = new Observation[capacity];
    }

    @Override
    public void append(Observation observation) {
        lock.lock();
        try {
            ring[next] = observation;
            next = (next + 1) % ring.length;
            size = Math.min(size + 1, ring.length);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<Observation> newestFirst(ObservationQuery query) {
        List<Observation> found = new ArrayList<>();
        lock.lock();
        try {
            for (int i = 1; i <= size && found.size() < query.limit(); i++) {
                Observation observation = ring[Math.floorMod(next - i, ring.length)];
                if (query.matches(observation)) {
                    found.add(observation);
                }
            }
        } finally {
            lock.unlock();
        }
        return found;
    }

    @Override
    public long dropped() {
        return 0; // the ring forgets its oldest record; it never refuses a new one
    }

    @Override
    public String storage() {
        return "memory";
    }

    /**
     * Copies the matching records under the lock and hands them to {@code visitor} after releasing it: a
     * slow visitor (a derivation over the whole ring) never keeps a tool call waiting in {@link #append}.
     */
    @Override
    public void forEachSince(Instant notBefore, Consumer<Observation> visitor) {
        Objects.requireNonNull(notBefore, "notBefore");
        Objects.requireNonNull(visitor, "visitor");
        List<Observation> since = new ArrayList<>();
        lock.lock();
        try {
            for (int i = size; i >= 1; i--) { // oldest first
                Observation observation = ring[Math.floorMod(next - i, ring.length)];
                if (!observation.ts().isBefore(notBefore)) {
                    since.add(observation);
                }
            }
        } finally {
            lock.unlock();
        }
        since.forEach(visitor);
    }
}
