package dev.omcp.core.auth;

import dev.omcp.ports.ratelimit.AddressLimits;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The limits per client address of the management API and of failed credentials (spec 8, "IP-level limit of other
 * endpoints"), each in its own {@link AddressWindows} of fixed one-minute windows, counted in this process.
 *
 * <p>Both tables admit a new address uncounted while they are full
 * ({@link AddressWindows.WhenFull#ADMIT_NEW_ADDRESSES_UNCOUNTED}), where the login limit refuses it: the failure
 * table holds only addresses that failed, so refusing every address it does not hold would let one client with
 * enough source addresses (a few IPv6 /48s) shut every agent and the identity provider out at once. Admitted
 * uncounted, such a client gets no more than its many addresses already give it (each of them its limit a minute),
 * memory stays fixed, and the addresses already counted stay limited.
 */
public final class PerAddressLimits implements AddressLimits {
    /** Requests to {@code /api} one address may send per minute, by default. */
    public static final int API_REQUESTS_PER_MINUTE = 600;
    /** Failed credentials one address may send per minute, by default, before its requests are refused unchecked. */
    public static final int CREDENTIAL_FAILURES_PER_MINUTE = 30;
    /** Addresses with a live window each table holds at most (about 12 MiB each when full). */
    public static final int MAX_ADDRESSES = 100_000;
    /** The window of both limits. */
    public static final Duration WINDOW = Duration.ofMinutes(1);
    private static final Verdict ADMITTED = new Verdict.Admitted();

    private final Clock clock;
    private final Optional<AddressWindows> apiRequests;
    private final Optional<AddressWindows> credentialFailures;

    /**
     * @param apiRequestsPerMinute requests to {@code /api} per address per minute; empty disables the limit
     * @param credentialFailuresPerMinute failed credentials per address per minute; empty disables the limit
     * @throws IllegalArgumentException when a limit given is below 1
     */
    public PerAddressLimits(OptionalInt apiRequestsPerMinute, OptionalInt credentialFailuresPerMinute, Clock clock) {
        this(apiRequestsPerMinute, credentialFailuresPerMinute, MAX_ADDRESSES, clock);
    }

    PerAddressLimits(OptionalInt apiRequestsPerMinute, OptionalInt credentialFailuresPerMinute, int maxAddresses, Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.apiRequests = table(apiRequestsPerMinute, maxAddresses);
        this.credentialFailures = table(credentialFailuresPerMinute, maxAddresses);
    }

    private static Optional<AddressWindows> table(OptionalInt perMinute, int maxAddresses) {
        return perMinute.isEmpty() ? Optional.empty() : Optional.of(new AddressWindows(perMinute.getAsInt(), WINDOW, maxAddresses,
                AddressWindows.WhenFull.ADMIT_NEW_ADDRESSES_UNCOUNTED));
    }

    @Override
    public Verdict admitApiRequest(String address) {
        return apiRequests.map(table -> verdict(table, table.admit(address, clock.instant()))).orElse(ADMITTED);
    }

    @Override
    public Verdict admitCredential(String address) {
        return credentialFailures.map(table -> verdict(table, table.check(address, clock.instant()))).orElse(ADMITTED);
    }

    @Override
    public Verdict credentialFailed(String address) {
        return credentialFailures.map(table -> verdict(table, table.admit(address, clock.instant()))).orElse(ADMITTED);
    }

    private static Verdict verdict(AddressWindows table, AddressWindows.Verdict verdict) {
        return switch (verdict) {
            case AddressWindows.Verdict.Admitted admitted -> ADMITTED;
            case AddressWindows.Verdict.Uncounted uncounted -> new Verdict.Uncounted(table.capacity());
            case AddressWindows.Verdict.Refused refused -> new Verdict.Refused(refused.retryAfter(), table.limit(), table.window());
        };
    }
}
