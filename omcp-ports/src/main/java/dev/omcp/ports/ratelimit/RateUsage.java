package dev.omcp.ports.ratelimit;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What {@code GET /api/usage} shows (spec 2.9): the requests each configured credential sent within
 * the current window, and its limit.
 *
 * @param identities one entry per configured credential, also those that sent nothing, sorted by actor
 * @param defaultLimit the limit of a credential without an override; empty when disabled
 * @param windowMs the window every count covers, {@link RateLimit#WINDOW_MS}
 */
public record RateUsage(List<Identity> identities, OptionalInt defaultLimit, long windowMs) {
    public RateUsage {
        identities = List.copyOf(identities);
        Objects.requireNonNull(defaultLimit, "defaultLimit");
    }

    /**
     * One credential's usage.
     *
     * @param actor the principal id of the credential ({@code key:<name>})
     * @param tenant the tenant the credential is bound to; empty string when none (not shown, used
     *     to show a caller bound to a tenant its own credentials only)
     * @param count the requests admitted within the last {@code windowMs}
     * @param limit its limit; empty when disabled
     * @param windowMs the window of the count
     */
    public record Identity(String actor, String tenant, long count, OptionalInt limit, long windowMs) {
        public Identity {
            Objects.requireNonNull(actor, "actor");
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(limit, "limit");
            if (count < 0) {
                throw new IllegalArgumentException("a request count cannot be negative, got " + count);
            }
        }
    }
}
