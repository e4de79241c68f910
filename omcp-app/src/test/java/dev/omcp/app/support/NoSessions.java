package dev.omcp.app.support;

import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionSubject;
import java.time.Duration;

/** A session authority for tests whose routes open and check no session: either is a test bug. */
public final class NoSessions implements SessionAuthority {
    @Override
    public SessionClaims open(SessionSubject subject) {
        throw new UnsupportedOperationException("these tests open no session");
    }

    @Override
    public SessionCheck check(SessionClaims claims) {
        throw new UnsupportedOperationException("these tests check no session");
    }

    @Override
    public void close(SessionClaims claims) {}

    @Override
    public Duration lifetime() {
        return Duration.ofHours(12);
    }
}
