package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the session blocklist (spec 2.8).
 *
 * <p>An entry of a tenant voids only sessions of that tenant: an admin bound to a tenant must not
 * sign out another tenant's users or an admin of the whole gateway. An entry without a tenant
 * (the empty string) voids matching sessions of every tenant. The store keeps entries of different
 * tenants apart, so one never replaces or hides another.
 *
 * @param target whether {@code value} is a session id or a subject
 * @param value the {@code sid} or {@code sub}
 * @param reason why, as given by the admin
 * @param revokedAt when it was revoked
 * @param revokedBy who revoked it (principal id)
 * @param tenant the tenant whose sessions it voids; empty string: every session, whatever its tenant
 */
public record Revocation(
        RevocationTarget target, String value, String reason, Instant revokedAt, String revokedBy, String tenant) {
    /** Longest accepted {@code sid}, {@code sub}, {@code reason} or {@code tenant}. */
    public static final int MAX_TEXT = 256;

    public Revocation {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(revokedAt, "revokedAt");
        Objects.requireNonNull(revokedBy, "revokedBy");
        Objects.requireNonNull(tenant, "tenant");
        if (value.isBlank() || value.length() > MAX_TEXT) {
            throw new IllegalArgumentException(target.name().toLowerCase(java.util.Locale.ROOT)
                    + " must be 1-" + MAX_TEXT + " characters");
        }
        if (reason.length() > MAX_TEXT) {
            throw new IllegalArgumentException("reason must be at most " + MAX_TEXT + " characters");
        }
        if (tenant.length() > MAX_TEXT) {
            throw new IllegalArgumentException("tenant must be at most " + MAX_TEXT + " characters");
        }
    }

    /** An entry without a tenant: it voids matching sessions of every tenant. */
    public Revocation(RevocationTarget target, String value, String reason, Instant revokedAt, String revokedBy) {
        this(target, value, reason, revokedAt, revokedBy, "");
    }

    /** Whether this entry can void a session of {@code sessionTenant} (empty string: a session without a tenant). */
    public boolean appliesToTenant(String sessionTenant) {
        return tenant.isEmpty() || tenant.equals(sessionTenant);
    }
}
