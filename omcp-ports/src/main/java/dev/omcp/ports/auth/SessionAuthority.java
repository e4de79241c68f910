package dev.omcp.ports.auth;

import java.time.Duration;

/**
 * Driving port: opens, checks and closes cookie sessions (spec 2.6, 3.4). The HTTP adapter signs
 * and verifies the cookie; this port decides everything else.
 */
public interface SessionAuthority {

    /** Opens a session for {@code subject}: a fresh random {@code sid}, issued now, lifetime from now. */
    SessionClaims open(SessionSubject subject);

    /** Checks a session whose signature was verified: expiry, then the revocation list. */
    SessionCheck check(SessionClaims claims);

    /** Ends a session at logout: its {@code sid} is revoked so a copied cookie stops working too. */
    void close(SessionClaims claims);

    /** How long a session lives (spec 5.2: 12 hours by default). */
    Duration lifetime();
}
