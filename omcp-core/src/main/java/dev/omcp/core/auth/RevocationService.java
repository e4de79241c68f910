package dev.omcp.core.auth;

import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.identity.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Admin revocations of sessions (spec 2.8, 3.4, 4.3). */
public final class RevocationService implements SessionRevocations {
    private final RevocationStore store;
    private final Clock clock;

    public RevocationService(RevocationStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Revocation revoke(RevocationTarget target, String value, String reason, Principal by) {
        Objects.requireNonNull(target, "target");
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("name the session to revoke: {\"sid\": \"...\"} or {\"sub\": \"...\"}");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("sid and sub must not contain control characters");
        }
        // scoped to the admin's tenant: one bound to a tenant must not void another tenant's or a gateway-wide admin's sessions
        Revocation revocation = new Revocation(
                target, value.trim(), reason == null ? "" : reason.trim(), clock.instant(), by.id(), by.tenant());
        // within the admins' part of the list and the tenant's share: a tenant filling the list would leave the
        // others no revocation and nobody a logout
        store.addByAdmin(revocation);
        return revocation;
    }

    @Override
    public List<Revocation> current(Principal viewer) {
        List<Revocation> all = store.current(clock.instant());
        // as GET /api/audit: a caller bound to a tenant sees its tenant's entries only; other tenants' name their users
        return viewer.tenant().isEmpty() ? all : all.stream().filter(r -> r.tenant().equals(viewer.tenant())).toList();
    }

    @Override
    public Optional<Instant> allSessionsRevokedAt() {
        return store.allSessionsRevokedAt(clock.instant());
    }
}
