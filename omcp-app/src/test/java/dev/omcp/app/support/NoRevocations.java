package dev.omcp.app.support;

import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.identity.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** An empty session blocklist for tests that revoke nothing: a revocation is a test bug. */
public final class NoRevocations implements SessionRevocations {
    @Override
    public Revocation revoke(RevocationTarget target, String value, String reason, Principal by) {
        throw new UnsupportedOperationException("these tests revoke nothing");
    }

    @Override
    public List<Revocation> current(Principal viewer) {
        return List.of();
    }

    @Override
    public Optional<Instant> allSessionsRevokedAt() {
        return Optional.empty();
    }
}
