package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.testkit.time.ManualClock;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionSubject;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec 3.4, session states, row by row, with a manual clock. */
class SessionServiceTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00.250Z"));
    private final InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(12));
    private final SessionService sessions = new SessionService(clock, new SecureRandom(), Duration.ofHours(12), store);
    private final RevocationService revocations = new RevocationService(store, clock);
    private final Principal admin = new Principal("root", "Root", AuthKind.SESSION, "", java.util.Set.of("admin"),
            java.util.Optional.of("admin-sid"));

    private SessionClaims open(String sub) {
        return sessions.open(new SessionSubject(sub, sub.toUpperCase(), List.of("viewer"), "t1"));
    }

    @Test
    void aFreshSessionIsValid_andCarriesItsSubjectAsThePrincipal() {
        SessionClaims claims = open("alice");
        Principal principal = ((SessionCheck.Valid) sessions.check(claims)).principal();
        assertThat(principal.id()).isEqualTo("alice");
        assertThat(principal.authKind()).isEqualTo(AuthKind.SESSION);
        assertThat(principal.roles()).containsExactly("viewer");
        assertThat(principal.tenant()).isEqualTo("t1");
        assertThat(principal.sessionId()).contains(claims.sid());
    }

    @Test
    void sessionIdsAreRandomAndDistinct() {
        assertThat(open("alice").sid()).isNotEqualTo(open("alice").sid()).hasSizeGreaterThanOrEqualTo(22);
    }

    @Test
    void valid_to_expired_whenExpIsReached_after12Hours() {
        // spec 3.4 row 3, spec 8: 12 hours
        SessionClaims claims = open("alice");
        clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertThat(sessions.check(claims)).isInstanceOf(SessionCheck.Valid.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(sessions.check(claims)).isInstanceOf(SessionCheck.Expired.class);
    }

    @Test
    void valid_to_revoked_bySid() {
        // spec 3.4 row 1
        SessionClaims revoked = open("alice");
        SessionClaims other = open("alice");
        revocations.revoke(RevocationTarget.SID, revoked.sid(), "stolen laptop", admin);
        assertThat(sessions.check(revoked)).isInstanceOf(SessionCheck.Revoked.class);
        assertThat(sessions.check(other)).isInstanceOf(SessionCheck.Valid.class);
    }

    @Test
    void valid_to_revoked_bySub_forSessionsIssuedBeforeTheRevocation_aLaterLoginIsUnaffected() {
        // spec 3.4 row 2, spec 2.8
        SessionClaims before = open("alice");
        SessionClaims bob = open("bob");
        clock.advance(Duration.ofSeconds(10));
        revocations.revoke(RevocationTarget.SUB, "alice", "left the company", admin);
        assertThat(sessions.check(before)).isInstanceOf(SessionCheck.Revoked.class);
        assertThat(sessions.check(bob)).isInstanceOf(SessionCheck.Valid.class);
        clock.advance(Duration.ofSeconds(1));
        SessionClaims after = open("alice");
        assertThat(sessions.check(after)).isInstanceOf(SessionCheck.Valid.class);
    }

    @Test
    void aLoginInTheSameSecondAfterASubRevocationIsUnaffected() {
        // spec 2.8: "a later login is unaffected", also when it falls in the revocation's second
        revocations.revoke(RevocationTarget.SUB, "alice", "", admin);
        clock.advance(Duration.ofMillis(500));
        SessionClaims later = open("alice");
        assertThat(sessions.check(later)).isInstanceOf(SessionCheck.Valid.class);
        assertThat(later.exp()).isEqualTo(clock.instant().getEpochSecond() + Duration.ofHours(12).toSeconds());
    }

    @Test
    void aSessionOpenedEarlierInTheSameSecondAsASubRevocationIsVoided() {
        SessionClaims earlier = open("alice");
        clock.advance(Duration.ofMillis(500));
        revocations.revoke(RevocationTarget.SUB, "alice", "", admin);
        assertThat(sessions.check(earlier)).isInstanceOf(SessionCheck.Revoked.class);
    }

    @Test
    void aLoginAfterASubRevocationStampedAheadByAReplicaWhoseClockIsFast_isUnaffected() {
        // another replica, 5 seconds ahead, wrote the revocation; this replica opens the session after reading it
        store.add(new Revocation(RevocationTarget.SUB, "alice", "", clock.instant().plusSeconds(5), "root"));
        SessionClaims later = open("alice");
        assertThat(sessions.check(later)).isInstanceOf(SessionCheck.Valid.class);
        clock.advance(Duration.ofSeconds(10));
        assertThat(sessions.check(later)).isInstanceOf(SessionCheck.Valid.class);
    }

    @Test
    void aSubRevocationOfAnotherSubjectLeavesTheIssueTimeAtNow() {
        revocations.revoke(RevocationTarget.SUB, "bob", "", admin);
        assertThat(open("alice").iat()).isEqualTo(clock.instant().getEpochSecond());
    }

    @Test
    void logoutRevokesTheSid() {
        SessionClaims claims = open("alice");
        sessions.close(claims);
        assertThat(sessions.check(claims)).isInstanceOf(SessionCheck.Revoked.class);
        assertThat(revocations.current(admin)).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo("logout");
            assertThat(r.revokedBy()).isEqualTo("alice");
            assertThat(r.tenant()).as("the session's tenant").isEqualTo("t1");
        });
    }

    private Principal adminOf(String tenant) {
        return new Principal("admin-of-" + tenant, "Admin", AuthKind.SESSION, tenant, java.util.Set.of("admin"),
                java.util.Optional.of("sid-of-" + tenant));
    }

    private SessionClaims open(String sub, String tenant) {
        return sessions.open(new SessionSubject(sub, sub, List.of("admin"), tenant));
    }

    @Test
    void aTenantAdminsSubRevocation_voidsThatTenantsSessionsOfTheSubjectOnly() {
        SessionClaims gatewayRoot = open("root", "");
        SessionClaims acmeRoot = open("root", "acme");
        SessionClaims globexRoot = open("root", "globex");

        Revocation revocation = revocations.revoke(RevocationTarget.SUB, "root", "takeover", adminOf("acme"));

        assertThat(revocation.tenant()).isEqualTo("acme");
        assertThat(sessions.check(gatewayRoot)).as("a gateway-wide admin of the same name").isInstanceOf(SessionCheck.Valid.class);
        assertThat(sessions.check(globexRoot)).as("another tenant's user of the same name").isInstanceOf(SessionCheck.Valid.class);
        assertThat(sessions.check(acmeRoot)).isInstanceOf(SessionCheck.Revoked.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(sessions.check(open("root", "acme"))).as("a later login").isInstanceOf(SessionCheck.Valid.class);
    }

    @Test
    void aTenantAdminsSidRevocation_cannotVoidAnotherTenantsSession_anAdminWithoutATenantCan() {
        SessionClaims globex = open("gus", "globex");

        revocations.revoke(RevocationTarget.SID, globex.sid(), "", adminOf("acme"));
        assertThat(sessions.check(globex)).isInstanceOf(SessionCheck.Valid.class);

        revocations.revoke(RevocationTarget.SID, globex.sid(), "", admin);
        assertThat(sessions.check(globex)).isInstanceOf(SessionCheck.Revoked.class);
    }

    @Test
    void aTenantsSubRevocation_neitherReplacesNorHidesAnEarlierOneWithoutATenant() {
        SessionClaims gatewayRoot = open("root", "");
        clock.advance(Duration.ofSeconds(1));
        revocations.revoke(RevocationTarget.SUB, "root", "gateway-wide", admin);
        clock.advance(Duration.ofSeconds(1));
        revocations.revoke(RevocationTarget.SUB, "root", "acme only", adminOf("acme"));

        assertThat(sessions.check(gatewayRoot)).isInstanceOf(SessionCheck.Revoked.class);
        assertThat(revocations.current(admin)).extracting(Revocation::reason, Revocation::tenant)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("gateway-wide", ""),
                        org.assertj.core.groups.Tuple.tuple("acme only", "acme"));
    }

    @Test
    void aTenantAdminSeesItsTenantsEntriesOnly_anAdminWithoutATenantSeesEvery() {
        revocations.revoke(RevocationTarget.SUB, "bob", "", admin);
        clock.advance(Duration.ofSeconds(1));
        revocations.revoke(RevocationTarget.SUB, "carol", "left acme", adminOf("acme"));
        clock.advance(Duration.ofSeconds(1));
        revocations.revoke(RevocationTarget.SUB, "dave", "left globex", adminOf("globex"));
        clock.advance(Duration.ofSeconds(1));
        sessions.close(open("erin", "acme"));

        assertThat(revocations.current(adminOf("acme"))).extracting(Revocation::reason).containsExactly("left acme", "logout");
        assertThat(revocations.current(adminOf("globex"))).extracting(Revocation::value).containsExactly("dave");
        assertThat(revocations.current(admin)).extracting(Revocation::tenant).containsExactly("", "acme", "globex", "acme");
    }

    @Test
    void claimsIssuedInTheFutureOrLongerThanTheLifetime_areInvalid() {
        long now = clock.instant().getEpochSecond();
        assertThat(sessions.check(new SessionClaims("a", "a", List.of(), now + 3600, now + 7200, "s", "")))
                .isInstanceOf(SessionCheck.Invalid.class);
        assertThat(sessions.check(new SessionClaims("a", "a", List.of(), now, now + 13 * 3600, "s", "")))
                .isInstanceOf(SessionCheck.Invalid.class);
    }

    @Test
    void revocationEntriesExpireWithTheLongestSessionTheyCouldMatch() {
        revocations.revoke(RevocationTarget.SID, "old", "", admin);
        clock.advance(Duration.ofHours(12).plusSeconds(1));
        revocations.revoke(RevocationTarget.SID, "new", "", admin);
        assertThat(revocations.current(admin)).extracting(r -> r.value()).containsExactly("new");
    }

    @Test
    void aNewerSubRevocationReplacesAnOlderOne() {
        revocations.revoke(RevocationTarget.SUB, "alice", "first", admin);
        clock.advance(Duration.ofMinutes(5));
        SessionClaims between = open("alice");
        clock.advance(Duration.ofMinutes(5));
        revocations.revoke(RevocationTarget.SUB, "alice", "second", admin);
        assertThat(sessions.check(between)).isInstanceOf(SessionCheck.Revoked.class);
        assertThat(revocations.current(admin)).singleElement().extracting(r -> r.reason()).isEqualTo("second");
    }

    @Test
    void aRevocationNeedsATargetWithoutControlCharacters() {
        assertThatThrownBy(() -> revocations.revoke(RevocationTarget.SID, " ", "", admin)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> revocations.revoke(RevocationTarget.SUB, "a\nb", "", admin)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> revocations.revoke(RevocationTarget.SUB, "x".repeat(300), "", admin))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(revocations.current(admin)).isEmpty();
    }

    @Test
    void aFullBlocklistRefusesFurtherEntries() {
        InMemoryRevocationStore small = new InMemoryRevocationStore(Duration.ofHours(12), 2);
        RevocationService service = new RevocationService(small, clock);
        service.revoke(RevocationTarget.SID, "a", "", admin);
        service.revoke(RevocationTarget.SID, "b", "", admin);
        assertThatThrownBy(() -> service.revoke(RevocationTarget.SID, "c", "", admin))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("blocklist");
        assertThat(service.current(admin)).hasSize(2);
    }

    @Test
    void aLogoutOfASessionSteppedPastASubjectRevocation_staysRevokedUntilTheSessionExpires() {
        // the blocklist as the gateway builds it: retention = lifetime, expired entries dropped by this clock
        InMemoryRevocationStore pruned = new InMemoryRevocationStore(Duration.ofHours(12), 100, clock);
        SessionService service = new SessionService(clock, new SecureRandom(), Duration.ofHours(12), pruned);
        // another replica, its clock 59 s ahead, revoked alice: this login's issue time steps past it
        pruned.add(new Revocation(RevocationTarget.SUB, "alice", "", clock.instant().plusSeconds(59), "root"));
        SessionClaims stepped = service.open(new SessionSubject("alice", "ALICE", List.of("viewer"), "t1"));
        assertThat(stepped.iat()).isEqualTo(clock.instant().getEpochSecond() + 60);
        service.close(stepped);

        clock.advance(Duration.ofHours(12).minusSeconds(1));
        pruned.current(clock.instant());
        assertThat(service.check(stepped)).as("one second before it expires").isInstanceOf(SessionCheck.Revoked.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(service.check(stepped)).isInstanceOf(SessionCheck.Expired.class);
    }
}
