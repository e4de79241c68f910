package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the blocklist holds about one session.
 *
 * @param sessionRevoked whether its {@code sid} is revoked
 * @param subjectRevokedAt the latest revocation of its {@code sub}, if any
 */
public record RevocationFacts(boolean sessionRevoked, Optional<Instant> subjectRevokedAt) {
    public RevocationFacts {
        Objects.requireNonNull(subjectRevokedAt, "subjectRevokedAt");
    }
}
