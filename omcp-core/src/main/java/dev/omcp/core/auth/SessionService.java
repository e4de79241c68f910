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
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;

/**
 * The session rules of spec 2.6 and 3.4: a session lives {@code lifetime} from its opening, is
 * voided by a revocation of its {@code sid}, or of its {@code sub} when it was issued up to the
 * second of that revocation; only by a revocation without a tenant or of the session's own tenant
 * ({@link Revocation#appliesToTenant}).
 *
 * <p>Issue times have whole-second precision, so a session opened in the very second of a subject
 * revocation, or after a revocation another replica stamped with a clock running ahead, would carry
 * an issue time the revocation covers. Spec 2.8 says a later login is unaffected: a session opened
 * after such a revocation was read is therefore issued in the second after it. A session opened
 * before the revocation (even in its second) keeps the current second and stays voided.
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
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        String sid = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        return new SessionClaims(subject.sub(), subject.name(), subject.roles(), issueTime(subject, sid, now),
                now + lifetime.toSeconds(), sid, subject.tenant());
    }

    /**
     * {@code now}, or the second after a revocation of {@code sub} (or of every session) stamped in
     * this second or later, so that this later login is not voided by it (spec 2.8). A revocation
     * further ahead than the tolerated skew is not stepped over ({@link #check} would refuse such an
     * issue time): the session is voided by it, and the replica whose clock runs that far ahead needs fixing.
     */
    private long issueTime(SessionSubject subject, String sid, long now) {
        Optional<Instant> revokedAt = revocations.lookup(sid, subject.sub(), subject.tenant()).subjectRevokedAt();
        if (revokedAt.isEmpty() || revokedAt.get().getEpochSecond() < now) {
            return now;
        }
        long after = revokedAt.get().getEpochSecond() + 1;
        return after <= now + SKEW_SECONDS ? after : now;
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
        RevocationFacts facts = revocations.lookup(claims.sid(), claims.sub(), claims.tenant());
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
        // the session's tenant: its admins see the logout in their list, and it cannot void another tenant's session
        revocations.add(new Revocation(RevocationTarget.SID, claims.sid(), "logout", clock.instant(), claims.sub(), claims.tenant()));
    }

    @Override
    public Duration lifetime() {
        return lifetime;
    }
}
