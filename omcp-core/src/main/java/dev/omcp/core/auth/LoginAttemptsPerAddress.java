package dev.omcp.core.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Login attempts per client address in fixed one-minute windows (spec 5.2 rule 3, spec 8: 20 per
 * minute per IP, fixed). Counted in this process; every attempt counts, successful or not.
 */
public final class LoginAttemptsPerAddress {
    /** Spec 8: 20 logins per minute per IP. */
    public static final int LIMIT = 20;
    /** The window of the limit. */
    public static final Duration WINDOW = Duration.ofMinutes(1);
    private static final int PRUNE_ABOVE = 10_000;

    private final int limit;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicInteger writes = new AtomicInteger();

    public LoginAttemptsPerAddress() {
        this(LIMIT);
    }

    LoginAttemptsPerAddress(int limit) {
        this.limit = limit;
    }

    private record Window(Instant start, int count) {}

    /**
     * Counts one attempt from {@code address} at {@code now}.
     *
     * @return empty when the attempt may go on, else how long until the window ends
     */
    public Optional<Duration> tryAttempt(String address, Instant now) {
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
            windows.entrySet().removeIf(entry -> !entry.getValue().start().plus(WINDOW).isAfter(now));
        }
        return Optional.ofNullable(refused.get());
    }
}
