package dev.omcp.adapters.http.access;

import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionSubject;
import java.time.Duration;

/** The session authority of a guard in anonymous mode, which never reads a session: any use of it is a bug in the guard. */
public final class NoSessions implements SessionAuthority {
    @Override
    public SessionClaims open(SessionSubject subject) {
        throw new AssertionError("anonymous mode opens no session");
    }

    @Override
    public SessionCheck check(SessionClaims claims) {
        throw new AssertionError("anonymous mode checks no session");
    }

    @Override
    public void close(SessionClaims claims) {
        throw new AssertionError("anonymous mode closes no session");
    }

    @Override
    public Duration lifetime() {
        return Duration.ofHours(12);
    }
}
