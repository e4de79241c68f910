package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionSubject;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.testkit.time.ManualClock;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The session blocklist is shared by every tenant: an admin bound to one tenant may fill only its
 * tenant's share of it, so the others can still revoke a stolen session and everyone can still log
 * out (docs/access-control.md, "Revocation"). A list of 100 entries: a tenth per tenant, the last
 * tenth kept for logouts and the tenth before it for admins without a tenant.
 */
class TenantBlocklistShareTest {
    private static final Duration LIFETIME = Duration.ofHours(12);
    private static final int CAPACITY = 100;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryRevocationStore store = new InMemoryRevocationStore(LIFETIME, CAPACITY, clock);
    private final RevocationService revocations = new RevocationService(store, clock);
    private final SessionService sessions = new SessionService(clock, new SecureRandom(), LIFETIME, store);

    private static Principal admin(String name, String tenant) {
        return new Principal(name, name, AuthKind.SESSION, tenant, Set.of("admin"), Optional.of(name + "-sid"));
    }

    /** Revokes new sids as {@code by} until one is refused; how many were taken, and the refusal. */
    private List<String> revokeUntilRefused(Principal by, List<IllegalStateException> refusal) {
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 2 * CAPACITY; i++) {
            String sid = by.tenant() + "-" + by.id() + "-" + i;
            try {
                revocations.revoke(RevocationTarget.SID, sid, "flood", by);
            } catch (IllegalStateException e) {
                refusal.add(e);
                return taken;
            }
            taken.add(sid);
        }
        return taken;
    }

    @Test
    void aTenantFillingItsShare_cannotBlockAnotherTenantsRevocation_norAnyonesLogout_andKeepsEveryEntryItMade() {
        SessionClaims acmeUser = sessions.open(new SessionSubject("victor", "Victor", List.of("viewer"), "acme"));
        SessionClaims globexUser = sessions.open(new SessionSubject("gina", "Gina", List.of("viewer"), "globex"));
        SessionClaims operatorSession = sessions.open(new SessionSubject("root", "Root", List.of("admin"), ""));
        Principal ann = admin("ann", "acme");

        List<IllegalStateException> refusal = new ArrayList<>();
        List<String> taken = revokeUntilRefused(ann, refusal);

        assertThat(taken).as("acme's share: a tenth of the list").hasSize(CAPACITY / 10);
        assertThat(refusal).singleElement().satisfies(e -> assertThat(e.getMessage()).contains("'acme'", "share", "10"));
        assertThat(taken).as("nothing acme already holds is dropped")
                .allSatisfy(sid -> assertThat(store.lookup(sid, "nobody", "acme").sessionRevoked()).isTrue());
        assertThat(revocations.revoke(RevocationTarget.SID, taken.get(0), "again", ann).reason())
                .as("revoking what is already revoked takes no new entry, so it is not refused").isEqualTo("again");

        Revocation globex = revocations.revoke(RevocationTarget.SUB, "gina", "stolen laptop", admin("gus", "globex"));
        assertThat(globex.tenant()).isEqualTo("globex");
        assertThat(sessions.check(globexUser)).as("another tenant still revokes a stolen session").isInstanceOf(SessionCheck.Revoked.class);
        revocations.revoke(RevocationTarget.SID, "stolen-elsewhere", "", admin("alice", ""));

        sessions.close(acmeUser);
        assertThat(sessions.check(acmeUser)).as("a user of the tenant that used its share still logs out")
                .isInstanceOf(SessionCheck.Revoked.class);
        sessions.close(operatorSession);
        assertThat(sessions.check(operatorSession)).isInstanceOf(SessionCheck.Revoked.class);
    }

    @Test
    void manyTenants_leaveRoomForAdminsWithoutATenant_andEveryoneLeavesRoomForLogouts() {
        int tenantEntries = 0;
        for (int t = 0; t < 20; t++) {
            tenantEntries += revokeUntilRefused(admin("admin", "tenant-" + t), new ArrayList<>()).size();
        }
        assertThat(tenantEntries).as("tenants together stop short of the last fifth").isEqualTo(CAPACITY - 2 * CAPACITY / 10);

        List<IllegalStateException> operatorRefusal = new ArrayList<>();
        int operatorEntries = revokeUntilRefused(admin("alice", ""), operatorRefusal).size();
        assertThat(operatorEntries).as("admins without a tenant stop short of the last tenth").isEqualTo(CAPACITY / 10);
        assertThat(operatorRefusal).singleElement().satisfies(e -> assertThat(e.getMessage()).contains("logouts"));

        List<SessionClaims> loggedOut = new ArrayList<>();
        for (int i = 0; i < CAPACITY / 10; i++) {
            SessionClaims session = sessions.open(new SessionSubject("user-" + i, "U", List.of("viewer"), "tenant-" + (i % 3)));
            sessions.close(session);
            loggedOut.add(session);
        }
        assertThat(loggedOut).as("the last tenth is for logouts, whatever the tenants took")
                .allSatisfy(session -> assertThat(sessions.check(session)).isInstanceOf(SessionCheck.Revoked.class));
        SessionClaims oneTooMany = sessions.open(new SessionSubject("late", "L", List.of("viewer"), ""));
        assertThatThrownBy(() -> sessions.close(oneTooMany)).as("only a list full to the last entry refuses a logout")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTenantsShare_isFreedAsItsEntriesExpire() {
        Principal ann = admin("ann", "acme");
        revokeUntilRefused(ann, new ArrayList<>());
        clock.advance(LIFETIME.plusSeconds(1));

        assertThat(revocations.revoke(RevocationTarget.SUB, "victor", "", ann).tenant()).isEqualTo("acme");
    }

    @Test
    void concurrentRevocationsOfOneTenant_neverTogetherPassItsShare() throws Exception {
        Principal ann = admin("ann", "acme");
        int threads = 48;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger taken = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String sid = "sid-" + i;
                done.add(pool.submit(() -> {
                    start.await();
                    try {
                        revocations.revoke(RevocationTarget.SID, sid, "", ann);
                        taken.incrementAndGet();
                    } catch (IllegalStateException e) {
                        // refused: the share is used up
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertThat(taken).hasValue(CAPACITY / 10);
        assertThat(revocations.current(ann)).hasSize(CAPACITY / 10);
    }
}
