package dev.omcp.ports.auth;

import dev.omcp.ports.identity.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Driving port: the admin view of the blocklist ({@code /api/auth/revocations}, spec 4.3). */
public interface SessionRevocations {

    /**
     * Revokes a session ({@link RevocationTarget#SID}) or every session of a subject issued so far
     * ({@link RevocationTarget#SUB}). The entry takes the tenant of {@code by}: an admin bound to a
     * tenant voids only that tenant's sessions, one without a tenant voids them whatever their tenant.
     *
     * @throws IllegalArgumentException when {@code value} or {@code reason} is empty or too long
     * @throws TenantShareFullException when {@code by} is bound to a tenant that holds its whole share
     *     of the blocklist ({@link RevocationStore#addByAdmin})
     * @throws BlocklistFullException when the blocklist holds as many entries as admins may fill
     */
    Revocation revoke(RevocationTarget target, String value, String reason, Principal by);

    /**
     * The entries in force now that {@code viewer} may see, oldest first: those of its tenant when it
     * is bound to one (other tenants' entries name their users), every entry otherwise.
     */
    List<Revocation> current(Principal viewer);

    /**
     * When every session issued until then was voided at once, if that is still in force now
     * ({@link RevocationStore#allSessionsRevokedAt}); the list of entries does not show it.
     */
    Optional<Instant> allSessionsRevokedAt();
}
