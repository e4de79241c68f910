package dev.omcp.ports.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Driving port: counts attempts per client address against a fixed limit per window, in a table of
 * bounded size (spec 5.2 rule 3: 20 logins per minute per IP). Used where an unauthenticated caller
 * could otherwise make the gateway work or call out as often as it likes: the password login, and
 * the OIDC callback, each of which may cost a call to the identity provider.
 *
 * <p>"Per address" is per IPv4 address, or per /64 prefix for an IPv6 address (the smallest block
 * a client is usually given; an IPv4-mapped IPv6 address counts as its IPv4 address): counted by
 * full IPv6 address, one client could take a fresh counter for each attempt.
 *
 * <p>Implementations are thread-safe: attempts arrive on many request threads at once.
 */
public interface AttemptsPerAddress {

    /**
     * Counts one attempt from {@code address} at {@code now}.
     *
     * @param address the client address after the trusted-proxy rules
     * @return empty when the attempt may go on, else why it was refused and for how long
     */
    Optional<Refusal> tryAttempt(String address, Instant now);

    /** Addresses with a live window the table holds at most. */
    int capacity();

    /**
     * A refused attempt.
     *
     * @param retryAfter how long until the attempt may be tried again
     * @param tableFull true when the address was refused because the table holds {@link #capacity()}
     *     other addresses with a live window (many addresses: a spray, or a proxy trusted too far),
     *     false when the address itself is over its limit
     */
    record Refusal(Duration retryAfter, boolean tableFull) {
        public Refusal {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }
}
