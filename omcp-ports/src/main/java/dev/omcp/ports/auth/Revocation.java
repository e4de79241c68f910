package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the session blocklist (spec 2.8).
 *
 * @param target whether {@code value} is a session id or a subject
 * @param value the {@code sid} or {@code sub}
 * @param reason why, as given by the admin
 * @param revokedAt when it was revoked
 * @param revokedBy who revoked it (principal id)
 */
public record Revocation(RevocationTarget target, String value, String reason, Instant revokedAt, String revokedBy) {
    /** Longest accepted {@code sid}, {@code sub} or {@code reason}. */
    public static final int MAX_TEXT = 256;

    public Revocation {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(revokedAt, "revokedAt");
        Objects.requireNonNull(revokedBy, "revokedBy");
        if (value.isBlank() || value.length() > MAX_TEXT) {
            throw new IllegalArgumentException(target.name().toLowerCase(java.util.Locale.ROOT)
                    + " must be 1-" + MAX_TEXT + " characters");
        }
        if (reason.length() > MAX_TEXT) {
            throw new IllegalArgumentException("reason must be at most " + MAX_TEXT + " characters");
        }
    }
}
