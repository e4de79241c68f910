package dev.omcp.core.auth;

import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionSubject;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;

/**
 * The session rules of spec 2.6 and 3.4: a session lives {@code lifetime} from its issue time, is
 * voided by a revocation of its {@code sid}, or of its {@code sub} when it was issued up to the
 * second of that revocation (issue times have whole-second precision, so a login in the very
 * second of a subject revocation is voided too: the rule errs on the safe side).
 */
public final class SessionService implements SessionAuthority {
    /** Spec 5.2 rule 4: 12 hours. */
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(12);
    /** Tolerated clock difference between replicas for {@code iat}. */
    private static final long SKEW_SECONDS = 60;

    private final Clock clock;
    private final SecureRandom random;
    private final Duration lifetime;
    private final RevocationStore revocations;

    public SessionService(Clock clock, SecureRandom random, Duration lifetime, RevocationStore revocations) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.lifetime = Objects.requireNonNull(lifetime, "lifetime");
        this.revocations = Objects.requireNonNull(revocations, "revocations");
        if (lifetime.toSeconds() < 60) {
            throw new IllegalArgumentException("session lifetime must be at least 60 seconds");
        }
    }

    @Override
    public SessionClaims open(SessionSubject subject) {
        long now = clock.instant().getEpochSecond();
        byte[] sid = new byte[18];
        random.nextBytes(sid);
        return new SessionClaims(
                subject.sub(), subject.name(), subject.roles(), now, now + lifetime.toSeconds(),
                Base64.getUrlEncoder().withoutPadding().encodeToString(sid), subject.tenant());
    }

    @Override
    public SessionCheck check(SessionClaims claims) {
        long now = clock.instant().getEpochSecond();
        if (claims.exp() <= now) {
            return new SessionCheck.Expired();
        }
        if (claims.iat() > now + SKEW_SECONDS) {
            return new SessionCheck.Invalid("the session was issued in the future");
        }
        if (claims.exp() - claims.iat() > lifetime.toSeconds()) {
            return new SessionCheck.Invalid("the session lasts longer than the configured lifetime");
        }
        RevocationFacts facts = revocations.lookup(claims.sid(), claims.sub());
        if (facts.sessionRevoked()) {
            return new SessionCheck.Revoked();
        }
        if (facts.subjectRevokedAt().isPresent() && claims.iat() <= facts.subjectRevokedAt().get().getEpochSecond()) {
            return new SessionCheck.Revoked();
        }
        return new SessionCheck.Valid(new Principal(
                claims.sub(), claims.name(), AuthKind.SESSION, claims.tenant(),
                new LinkedHashSet<>(claims.roles()), Optional.of(claims.sid())));
    }

    @Override
    public void close(SessionClaims claims) {
        if (claims.exp() <= clock.instant().getEpochSecond()) {
            return;
        }
        revocations.add(new Revocation(RevocationTarget.SID, claims.sid(), "logout", clock.instant(), claims.sub()));
    }

    @Override
    public Duration lifetime() {
        return lifetime;
    }
}
