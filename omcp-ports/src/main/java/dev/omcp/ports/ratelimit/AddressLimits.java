package dev.omcp.ports.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * Driving port: the limits per client address of the endpoints that have no limit of their own (spec 8, "IP-level
 * limit of other endpoints"), which the HTTP adapter asks before a request does any work:
 * <ul>
 *   <li>requests to the management API ({@code /api/*}) per address within a window, so one address cannot keep the
 *       gateway busy with session checks, body parsing and answers;</li>
 *   <li>failed credentials per address within a window at the endpoints that take a bearer credential (the agent
 *       transport and SCIM): once an address has sent its limit of missing or wrong credentials, every request it
 *       sends there is refused before its credential is looked at, a valid one too, until its window ends. A guesser
 *       learns nothing from the refused requests, and the limit caps its guesses per window.</li>
 * </ul>
 *
 * <p>An address is the client address after the trusted-proxy rules, counted by IPv4 address or IPv6 /64. Each limit
 * may be disabled; a disabled one admits everything and counts nothing. Implementations hold a bounded table of
 * addresses, are thread-safe, answer at once and do no I/O.
 */
public interface AddressLimits {

    /** Counts one request to the management API from {@code address}; refused when the address sent its limit. */
    Verdict admitApiRequest(String address);

    /**
     * Whether a credential sent from {@code address} may be checked now, counting nothing: refused while the address
     * has its limit of failed credentials in its window.
     */
    Verdict admitCredential(String address);

    /**
     * Counts one failed credential check of {@code address} (an answer 401, a WebSocket closed for its credential).
     *
     * @return {@link Verdict.Admitted} when counted, {@link Verdict.Uncounted} when the table is full and the address
     *     is not in it, {@link Verdict.Refused} when the address is at its limit already (nothing more to count)
     */
    Verdict credentialFailed(String address);

    /** Limits nothing and counts nothing: a gateway, or an embedding service, without per-address limits. */
    static AddressLimits none() {
        Verdict admitted = new Verdict.Admitted();
        return new AddressLimits() {
            @Override
            public Verdict admitApiRequest(String address) {
                return admitted;
            }

            @Override
            public Verdict admitCredential(String address) {
                return admitted;
            }

            @Override
            public Verdict credentialFailed(String address) {
                return admitted;
            }
        };
    }

    /** The verdict on one request or failure. */
    sealed interface Verdict {
        /** It may go on (and was counted, where the call counts). */
        record Admitted() implements Verdict {}

        /**
         * It may go on, but was not counted: the table holds as many addresses as it may, none of whose windows has
         * ended, and this address is not among them (many source addresses: a spray, or a proxy trusted too far).
         * Memory stays bounded; the address is not limited until the table has room.
         *
         * @param capacity how many addresses the table holds
         */
        record Uncounted(int capacity) implements Verdict {}

        /**
         * It must not go on: the address has its limit within its window.
         *
         * @param retryAfter how long until the address's window ends; at least one second
         * @param limit the requests or failures an address may have per window
         * @param window the window
         */
        record Refused(Duration retryAfter, int limit, Duration window) implements Verdict {
            public Refused {
                Objects.requireNonNull(retryAfter, "retryAfter");
                Objects.requireNonNull(window, "window");
                if (retryAfter.isNegative() || retryAfter.isZero() || limit < 1) {
                    throw new IllegalArgumentException("inconsistent refusal: retry after " + retryAfter + ", limit " + limit);
                }
            }

            /** {@link #retryAfter} in whole seconds, rounded up ({@code Retry-After}); at least 1. */
            public long retryAfterSeconds() {
                return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
            }
        }
    }
}
