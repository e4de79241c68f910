package dev.omcp.core.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Events per client address in fixed windows, in a table of bounded size: the one counter behind
 * every per-address limit of the gateway (password logins, OIDC callbacks, client registrations,
 * requests to {@code /api}, failed credentials). A window opens at an address's first event and
 * lasts {@code window}; within it the address may have {@code limit} events, after it a whole new
 * {@code limit}. Addresses are counted by {@link ClientNetwork}: an IPv4 address, or an IPv6 /64.
 *
 * <p>Memory is bounded whatever clients send. Ended windows are dropped in the background of
 * ordinary events (every {@value #PRUNE_EVERY} writes), and, once the table holds
 * {@code maxAddresses} addresses, at most once a second when a new address comes. When the table
 * is full of live windows (a client spraying source addresses, from an IPv6 range or through a
 * proxy trusted too far), a new address is not added; what happens to its event is the table's
 * {@link WhenFull} rule: refused until the oldest window ends (fail closed), or let through without
 * being counted (fail open, for a limit whose refusal of every new address would shut out everyone
 * at once). The size check and the insert are not one step, so concurrent events may pass the check
 * together: the table can exceed the bound by at most the events in flight.
 *
 * <p>Thread-safe: the table is a {@link ConcurrentHashMap} whose windows are immutable values,
 * replaced atomically per address; no lock is held across addresses.
 */
public final class AddressWindows {
    /** Writes between two drops of ended windows. */
    static final int PRUNE_EVERY = 1024;
    private static final Duration AT_LEAST = Duration.ofSeconds(1);

    /** What becomes of the event of an address the full table does not hold. */
    public enum WhenFull {
        /** Refused until the oldest window ends: memory stays fixed, and a spray of addresses gains nothing. */
        REFUSE_NEW_ADDRESSES,
        /** Let through, not counted: memory stays fixed, and clients already counted stay limited. */
        ADMIT_NEW_ADDRESSES_UNCOUNTED
    }

    /** The verdict on one event. */
    public sealed interface Verdict {
        /** The event may go on; {@link #admit} counted it. */
        record Admitted() implements Verdict {}

        /**
         * The event may go on, uncounted: the table is full and its address is not in it
         * ({@link WhenFull#ADMIT_NEW_ADDRESSES_UNCOUNTED}).
         */
        record Uncounted() implements Verdict {}

        /**
         * The event must not go on, and was not counted.
         *
         * @param retryAfter how long until it may be tried again; at least one second
         * @param tableFull true when the address was refused because the table is full of other
         *     addresses ({@link WhenFull#REFUSE_NEW_ADDRESSES}), false when it is over its own limit
         */
        record Refused(Duration retryAfter, boolean tableFull) implements Verdict {
            public Refused {
                Objects.requireNonNull(retryAfter, "retryAfter");
            }
        }
    }

    private static final Verdict ADMITTED = new Verdict.Admitted();
    private static final Verdict UNCOUNTED = new Verdict.Uncounted();

    private final int limit;
    private final Duration window;
    private final long windowMillis;
    private final int maxAddresses;
    private final WhenFull whenFull;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicReference<Instant> lastPruneWhenFull = new AtomicReference<>(Instant.MIN);
    /** When the oldest live window ends, as the last drop saw it: tells a refused new address when to come back. */
    private final AtomicReference<Instant> soonestEnd = new AtomicReference<>(Instant.MIN);

    /** One address's window: its start in epoch milliseconds and the events counted in it. */
    private record Window(long startMillis, int count) {}

    /**
     * @param limit the events an address may have per window, at least 1
     * @param window how long a window lasts, positive
     * @param maxAddresses how many addresses with a live window the table holds at most, at least 1
     * @param whenFull what becomes of a new address's event while the table is full
     * @throws IllegalArgumentException naming the value out of range
     */
    public AddressWindows(int limit, Duration window, int maxAddresses, WhenFull whenFull) {
        Objects.requireNonNull(window, "window");
        if (limit < 1) {
            throw new IllegalArgumentException("a per-address limit admits at least 1 event per window, got " + limit);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a per-address window must be positive, got " + window);
        }
        if (maxAddresses < 1) {
            throw new IllegalArgumentException("a per-address table holds at least 1 address, got " + maxAddresses);
        }
        this.limit = limit;
        this.window = window;
        this.windowMillis = window.toMillis();
        this.maxAddresses = maxAddresses;
        this.whenFull = Objects.requireNonNull(whenFull, "whenFull");
    }

    /** Counts one event of {@code address} at {@code now}, unless the address is over its limit or the full table refuses it. */
    public Verdict admit(String address, Instant now) {
        String key = ClientNetwork.of(address);
        long nowMillis = now.toEpochMilli();
        if (windows.size() >= maxAddresses && !windows.containsKey(key)) {
            Verdict full = whenFull(now);
            if (full != null) {
                return full;
            }
        }
        AtomicReference<Verdict> refused = new AtomicReference<>();
        windows.compute(key, (ignored, current) -> {
            if (current == null || ended(current, nowMillis)) {
                return new Window(nowMillis, 1);
            }
            if (current.count() >= limit) {
                refused.set(ownLimit(current, nowMillis));
                return current;
            }
            return new Window(current.startMillis(), current.count() + 1);
        });
        if (writes.incrementAndGet() % PRUNE_EVERY == 0) {
            pruneEnded(now);
        }
        Verdict verdict = refused.get();
        return verdict == null ? ADMITTED : verdict;
    }

    /**
     * Whether an event of {@code address} at {@code now} would be over the address's own limit,
     * counting nothing: for a limit whose events are counted after the fact (a failed credential is
     * counted once it failed, and the next request is refused before its credential is looked at).
     * Never refused for the table: an address the table does not hold has no events against it.
     */
    public Verdict check(String address, Instant now) {
        if (windows.isEmpty()) {
            // the usual case of a limit counted after the fact (no address failed lately): no key to work out
            return ADMITTED;
        }
        Window current = windows.get(ClientNetwork.of(address));
        long nowMillis = now.toEpochMilli();
        if (current == null || ended(current, nowMillis) || current.count() < limit) {
            return ADMITTED;
        }
        return ownLimit(current, nowMillis);
    }

    /** The events an address may have per window. */
    public int limit() {
        return limit;
    }

    /** How long a window lasts. */
    public Duration window() {
        return window;
    }

    /** How many addresses with a live window the table holds at most. */
    public int capacity() {
        return maxAddresses;
    }

    /** How many addresses (IPv4) and /64s (IPv6) hold a window now, live or not yet dropped; for tests of the bound. */
    public int size() {
        return windows.size();
    }

    /** The full table's verdict on a new address, after a drop of ended windows made no room; null when it made room. */
    private Verdict whenFull(Instant now) {
        // at most one scan a second, so a flood at the bound costs no scan per event
        Instant last = lastPruneWhenFull.get();
        if (now.isAfter(last.plus(AT_LEAST)) && lastPruneWhenFull.compareAndSet(last, now)) {
            pruneEnded(now);
        }
        if (windows.size() < maxAddresses) {
            return null;
        }
        return switch (whenFull) {
            case REFUSE_NEW_ADDRESSES -> new Verdict.Refused(atLeastOneSecond(Duration.between(now, soonestEnd.get())), true);
            case ADMIT_NEW_ADDRESSES_UNCOUNTED -> UNCOUNTED;
        };
    }

    private Verdict ownLimit(Window current, long nowMillis) {
        return new Verdict.Refused(atLeastOneSecond(Duration.ofMillis(current.startMillis() + windowMillis - nowMillis)), false);
    }

    private boolean ended(Window current, long nowMillis) {
        return current.startMillis() + windowMillis <= nowMillis;
    }

    private void pruneEnded(Instant now) {
        long nowMillis = now.toEpochMilli();
        windows.values().removeIf(current -> ended(current, nowMillis));
        long soonest = windows.values().stream().mapToLong(current -> current.startMillis() + windowMillis).min().orElse(nowMillis);
        soonestEnd.set(Instant.ofEpochMilli(soonest));
    }

    /** A client told to retry in less than a second would retry at once. */
    private static Duration atLeastOneSecond(Duration duration) {
        return duration.compareTo(AT_LEAST) < 0 ? AT_LEAST : duration;
    }
}
