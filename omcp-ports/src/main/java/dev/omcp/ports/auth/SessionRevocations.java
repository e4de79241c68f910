package dev.omcp.ports.auth;

import dev.omcp.ports.identity.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Driving port: the admin view of the blocklist ({@code /api/auth/revocations}, spec 4.3). */
public interface SessionRevocations {

    /**
     * Revokes a session ({@link RevocationTarget#SID}) or every session of a subject issued so far
     * ({@link RevocationTarget#SUB}).
     *
     * @throws IllegalArgumentException when {@code value} or {@code reason} is empty or too long
     */
    Revocation revoke(RevocationTarget target, String value, String reason, Principal by);

    /** The entries in force now, oldest first. */
    List<Revocation> current();

    /**
     * When every session issued until then was voided at once, if that is still in force now
     * ({@link RevocationStore#allSessionsRevokedAt}); the list of entries does not show it.
     */
    Optional<Instant> allSessionsRevokedAt();
}
