package dev.omcp.core.auth.oidc;

import dev.omcp.core.auth.AddressWindows;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Client registrations per address in fixed windows, in a table of bounded size. Registration is
 * unauthenticated, so a client spraying source addresses (an IPv6 range holds more than any
 * memory) must not grow the table with every request: when {@code maxAddresses} addresses hold a
 * live window, a new address is refused until the oldest window ends (fail closed); see
 * {@link AddressWindows}.
 */
final class RegistrationsPerAddress {
    private final AddressWindows windows;

    /** @throws IllegalArgumentException when the limit, the window or the table size is not positive */
    RegistrationsPerAddress(int limit, Duration window, int maxAddresses) {
        this.windows = new AddressWindows(limit, window, maxAddresses, AddressWindows.WhenFull.REFUSE_NEW_ADDRESSES);
    }

    /**
     * Counts one registration from {@code address} at {@code now}.
     *
     * @return empty when it may go on, else how long until this address may try again (at least a second)
     */
    Optional<Duration> tryAdmit(String address, Instant now) {
        return windows.admit(address, now) instanceof AddressWindows.Verdict.Refused refused
                ? Optional.of(refused.retryAfter()) : Optional.empty();
    }

    /** How many addresses hold a window; for tests of the bound. */
    int size() {
        return windows.size();
    }
}
