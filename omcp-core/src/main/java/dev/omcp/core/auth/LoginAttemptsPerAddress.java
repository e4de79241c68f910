package dev.omcp.core.auth;

import dev.omcp.ports.auth.AttemptsPerAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Login attempts per client address in fixed one-minute windows (spec 5.2 rule 3, spec 8: 20 per
 * minute per IP, fixed). Counted in this process; every attempt counts, successful or not.
 *
 * <p>"Per IP" is per IPv4 address or per IPv6 /64 ({@link ClientNetwork}): a client holding a /64
 * could otherwise take a fresh counter for each of its addresses, and fill the table by itself.
 *
 * <p>The table is bounded ({@link AddressWindows}): when {@code maxAddresses} addresses all hold a
 * live window (a client spraying source addresses, from an IPv6 range or through a proxy trusted too
 * far), an address without a window is refused until the oldest window ends: failing closed keeps
 * memory fixed, where admitting it would let the table grow with every request. Such a refusal says
 * so ({@link Refusal#tableFull()}), so the operator can tell a table filled by many addresses from
 * one address over its limit.
 *
 * <p>The password login and the OIDC callback each get their own instance.
 */
public final class LoginAttemptsPerAddress implements AttemptsPerAddress {
    /** Spec 8: 20 logins per minute per IP. */
    public static final int LIMIT = 20;
    /** The window of the limit. */
    public static final Duration WINDOW = Duration.ofMinutes(1);
    /** Addresses with a live window the table holds at most, by default (about 12 MiB when full). */
    public static final int MAX_ADDRESSES = 100_000;

    private final AddressWindows windows;

    public LoginAttemptsPerAddress() {
        this(LIMIT, MAX_ADDRESSES);
    }

    LoginAttemptsPerAddress(int limit, int maxAddresses) {
        this.windows = new AddressWindows(limit, WINDOW, maxAddresses, AddressWindows.WhenFull.REFUSE_NEW_ADDRESSES);
    }

    @Override
    public int capacity() {
        return windows.capacity();
    }

    @Override
    public Optional<Refusal> tryAttempt(String clientAddress, Instant now) {
        return switch (windows.admit(clientAddress, now)) {
            case AddressWindows.Verdict.Refused refused -> Optional.of(new Refusal(refused.retryAfter(), refused.tableFull()));
            case AddressWindows.Verdict.Admitted admitted -> Optional.empty();
            // never with REFUSE_NEW_ADDRESSES; an attempt let through uncounted would still be no refusal
            case AddressWindows.Verdict.Uncounted uncounted -> Optional.empty();
        };
    }

    /** How many addresses (IPv4) and /64s (IPv6) hold a window; for tests of the bound. */
    int size() {
        return windows.size();
    }
}
