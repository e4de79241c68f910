package dev.omcp.core.auth.oidc;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Client registrations per address in fixed windows, in a table of bounded size. Registration is
 * unauthenticated, so a client spraying source addresses (an IPv6 range holds more than any
 * memory) must not grow the table with every request: when {@code maxAddresses} addresses hold a
 * live window, a new address is refused until windows end (fail closed), and ended windows are
 * dropped in the background of ordinary requests rather than by a scan on each of them.
 */
final class RegistrationsPerAddress {
    private static final int PRUNE_EVERY = 1024;

    private final int limit;
    private final Duration window;
    private final int maxAddresses;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicReference<Instant> lastPruneWhenFull = new AtomicReference<>(Instant.MIN);
    /** When the oldest live window ends, as seen by the last scan; tells a refused new address when to come back. */
    private final AtomicReference<Instant> soonestEnd = new AtomicReference<>(Instant.MIN);

    private record Window(Instant start, int count) {}

    RegistrationsPerAddress(int limit, Duration window, int maxAddresses) {
        if (limit < 1 || maxAddresses < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a registration limit needs a positive count, window and table size");
        }
        this.limit = limit;
        this.window = window;
        this.maxAddresses = maxAddresses;
    }

    /**
     * Counts one registration from {@code address} at {@code now}.
     *
     * @return empty when it may go on, else how long until this address may try again
     */
    Optional<Duration> tryAdmit(String address, Instant now) {
        if (windows.size() >= maxAddresses && !windows.containsKey(address)) {
            // at most one scan a second, so a flood at the bound costs no scan per request
            Instant last = lastPruneWhenFull.get();
            if (now.isAfter(last.plusSeconds(1)) && lastPruneWhenFull.compareAndSet(last, now)) {
                pruneEnded(now);
            }
            if (windows.size() >= maxAddresses) {
                // The check and the insert below are not one step: concurrent requests may pass it
                // together, so the table can exceed the bound by at most the requests in flight.
                return Optional.of(atLeastOneSecond(Duration.between(now, soonestEnd.get())));
            }
        }
        AtomicReference<Duration> refused = new AtomicReference<>();
        windows.compute(address, (key, current) -> {
            if (current == null || ended(current, now)) {
                return new Window(now, 1);
            }
            if (current.count() >= limit) {
                refused.set(Duration.between(now, current.start().plus(window)));
                return current;
            }
            return new Window(current.start(), current.count() + 1);
        });
        if (writes.incrementAndGet() % PRUNE_EVERY == 0) {
            pruneEnded(now);
        }
        return Optional.ofNullable(refused.get()).map(RegistrationsPerAddress::atLeastOneSecond);
    }

    private boolean ended(Window current, Instant now) {
        return !current.start().plus(window).isAfter(now);
    }

    private void pruneEnded(Instant now) {
        windows.values().removeIf(current -> ended(current, now));
        soonestEnd.set(windows.values().stream().map(current -> current.start().plus(window)).min(Instant::compareTo)
                .orElse(now));
    }

    private static Duration atLeastOneSecond(Duration duration) {
        return duration.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : duration;
    }

    /** How many addresses hold a window; for tests of the bound. */
    int size() {
        return windows.size();
    }
}
