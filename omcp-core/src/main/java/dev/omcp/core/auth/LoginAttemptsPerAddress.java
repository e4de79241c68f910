package dev.omcp.core.auth;

import dev.omcp.ports.auth.AttemptsPerAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Login attempts per client address in fixed one-minute windows (spec 5.2 rule 3, spec 8: 20 per
 * minute per IP, fixed). Counted in this process; every attempt counts, successful or not.
 *
 * <p>"Per IP" is per IPv4 address or per IPv6 /64 ({@link ClientNetwork}): a client holding a /64
 * could otherwise take a fresh counter for each of its addresses, and fill the table by itself.
 *
 * <p>The table is bounded: past windows are dropped as it grows, and when {@code maxAddresses}
 * addresses all hold a live window (a client spraying source addresses, from an IPv6 range or
 * through a proxy trusted too far), an address without a window is refused until windows end:
 * failing closed keeps memory fixed, where admitting it would let the table grow with every
 * request. Such a refusal says so ({@link Refusal#tableFull()}), so the operator can tell a table
 * filled by many addresses from one address over its limit.
 *
 * <p>The password login and the OIDC callback each get their own instance.
 */
public final class LoginAttemptsPerAddress implements AttemptsPerAddress {
    /** Spec 8: 20 logins per minute per IP. */
    public static final int LIMIT = 20;
    /** The window of the limit. */
    public static final Duration WINDOW = Duration.ofMinutes(1);
    /** Addresses with a live window the table holds at most, by default (a few MiB). */
    public static final int MAX_ADDRESSES = 100_000;
    private static final int PRUNE_ABOVE = 10_000;

    private final int limit;
    private final int maxAddresses;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicReference<Instant> lastPruneWhenFull = new AtomicReference<>(Instant.MIN);

    public LoginAttemptsPerAddress() {
        this(LIMIT, MAX_ADDRESSES);
    }

    LoginAttemptsPerAddress(int limit, int maxAddresses) {
        this.limit = limit;
        this.maxAddresses = maxAddresses;
    }

    private record Window(Instant start, int count) {}

    @Override
    public int capacity() {
        return maxAddresses;
    }

    @Override
    public Optional<Refusal> tryAttempt(String clientAddress, Instant now) {
        String address = ClientNetwork.of(clientAddress);
        if (windows.size() >= maxAddresses && !windows.containsKey(address)) {
            // at most one full scan per second, so a flood at the bound costs no scan per request
            Instant last = lastPruneWhenFull.get();
            if (now.isAfter(last.plusSeconds(1)) && lastPruneWhenFull.compareAndSet(last, now)) {
                pruneEnded(now);
            }
            if (windows.size() >= maxAddresses) {
                // The size check and the insert below are not one step, so concurrent requests may
                // pass it together: the table can exceed the bound by at most the requests in flight.
                return Optional.of(new Refusal(WINDOW, true));
            }
        }
        AtomicReference<Duration> refused = new AtomicReference<>();
        windows.compute(address, (key, window) -> {
            if (window == null || !window.start().plus(WINDOW).isAfter(now)) {
                return new Window(now, 1);
            }
            if (window.count() >= limit) {
                refused.set(Duration.between(now, window.start().plus(WINDOW)));
                return window;
            }
            return new Window(window.start(), window.count() + 1);
        });
        if (writes.incrementAndGet() % 1024 == 0 && windows.size() > PRUNE_ABOVE) {
            pruneEnded(now);
        }
        return Optional.ofNullable(refused.get()).map(retryAfter -> new Refusal(retryAfter, false));
    }

    private void pruneEnded(Instant now) {
        windows.entrySet().removeIf(entry -> !entry.getValue().start().plus(WINDOW).isAfter(now));
    }

    /** How many addresses (IPv4) and /64s (IPv6) hold a window; for tests of the bound. */
    int size() {
        return windows.size();
    }
}
