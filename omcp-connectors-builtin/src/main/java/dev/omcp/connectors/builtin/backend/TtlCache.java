package dev.omcp.connectors.builtin.backend;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A small map whose entries expire after a time-to-live, read from the gateway's clock. Thread-safe. */
public final class TtlCache<K, V> {
    private record Entry<V>(V value, Instant expires) {}

    private final ConcurrentHashMap<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration ttl;
    private final int maxEntries;

    /**
     * @param clock the clock expiry is measured on
     * @param ttl how long an entry lives
     * @param maxEntries the most entries kept; when full, the cache is cleared (entries are cheap to recompute)
     */
    public TtlCache(Clock clock, Duration ttl, int maxEntries) {
        this.clock = clock;
        this.ttl = ttl;
        this.maxEntries = maxEntries;
    }

    /** The live value of {@code key}, if any. */
    public Optional<V> get(K key) {
        Entry<V> e = entries.get(key);
        if (e == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(e.expires())) {
            entries.remove(key, e);
            return Optional.empty();
        }
        return Optional.of(e.value());
    }

    /** Stores {@code value} for the time-to-live. */
    public void put(K key, V value) {
        if (entries.size() >= maxEntries) {
            entries.clear();
        }
        entries.put(key, new Entry<>(value, clock.instant().plus(ttl)));
    }
}
