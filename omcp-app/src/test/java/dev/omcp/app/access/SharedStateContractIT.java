package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.redis.RedisAccountLocks;
import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.core.auth.InMemoryAccountLocks;
import dev.omcp.core.auth.InMemoryRevocationStore;
import dev.omcp.core.auth.RevocationService;
import dev.omcp.core.auth.SessionService;
import dev.omcp.ports.auth.AccountLocks;
import dev.omcp.ports.auth.FailureOutcome;
import dev.omcp.ports.auth.LockoutPolicy;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionCheck;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.SessionSubject;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.testkit.redis.RedisServerProcess;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The AccountLocks and RevocationStore contracts, run on the in-memory stores of the core and on
 * the Redis stores against a real redis-server: the Lua scripts must behave exactly like the core's
 * rules (spec 3.3, 3.4).
 */
@Tag("backend")
class SharedStateContractIT {
    private static RedisServerProcess redisServer;
    private static RedisConnection redis;
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Clock AT_T0 = Clock.fixed(T0, ZoneOffset.UTC);

    @BeforeAll
    static void startRedis() {
        redisServer = RedisServerProcess.start();
        redis = RedisConnection.connect(redisServer.url());
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
        if (redisServer != null) {
            redisServer.close();
        }
    }

    /** A script of failures, clears and time steps; the outcomes must be equal on both stores. */
    private static List<String> lockoutScript(AccountLocks locks) {
        LockoutPolicy policy = LockoutPolicy.DEFAULT;
        List<String> trace = new ArrayList<>();
        Instant now = T0;
        for (int lock = 0; lock < 8; lock++) {
            for (int i = 0; i < 5; i++) {
                FailureOutcome outcome = locks.recordFailure("alice", now, policy);
                trace.add(outcome.failuresInWindow() + "/" + outcome.lockedUntil().map(u -> Duration.between(T0, u).toSeconds()).orElse(-1L));
                now = now.plusSeconds(10);
            }
            trace.add("locked " + locks.lockedUntil("alice", now).isPresent());
            now = locks.lockedUntil("alice", now).orElse(now);
            trace.add("after " + locks.lockedUntil("alice", now).isPresent());
        }
        FailureOutcome windowed = locks.recordFailure("bob", now, policy);
        trace.add("bob " + windowed.failuresInWindow());
        now = now.plus(policy.window());
        trace.add("bob later " + locks.recordFailure("bob", now, policy).failuresInWindow());
        locks.clear("alice");
        Instant cleared = now;
        for (int i = 0; i < 4; i++) {
            locks.recordFailure("alice", cleared, policy);
        }
        trace.add("cleared " + locks.recordFailure("alice", cleared, policy).lockedUntil()
                .map(u -> Duration.between(cleared, u).toSeconds()).orElse(-1L));
        Instant quiet = now.plus(Duration.ofHours(25));
        for (int i = 0; i < 4; i++) {
            locks.recordFailure("alice", quiet, policy);
        }
        trace.add("forgotten " + locks.recordFailure("alice", quiet, policy).lockedUntil().map(u -> Duration.between(quiet, u).toSeconds())
                .orElse(-1L));
        return trace;
    }

    @Test
    void redisLockoutBehavesExactlyLikeTheCoreRule() {
        redisServer.flushAll();
        List<String> memory = lockoutScript(new InMemoryAccountLocks());
        List<String> shared = lockoutScript(new RedisAccountLocks(redis));
        assertThat(shared).isEqualTo(memory);
        assertThat(memory).contains("cleared 60", "forgotten 60", "bob 1", "bob later 1");
    }

    @Test
    void concurrentFailuresThroughTwoClients_countOneStreakAndLockOnce() throws Exception {
        redisServer.flushAll();
        try (RedisConnection second = RedisConnection.connect(redisServer.url())) {
            List<AccountLocks> replicas = List.of(new RedisAccountLocks(redis), new RedisAccountLocks(second));
            AtomicInteger lockingFailures = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            // Many more virtual threads than pooled connections: the pool must park them, not spin.
            for (int i = 0; i < 200; i++) {
                AccountLocks locks = replicas.get(i % 2);
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (locks.recordFailure("carol", T0, LockoutPolicy.DEFAULT).failuresInWindow() == 5) {
                        lockingFailures.incrementAndGet();
                    }
                }));
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(lockingFailures).hasValue(1);
            assertThat(replicas.get(1).lockedUntil("carol", T0)).contains(T0.plusSeconds(60));
        }
    }

    private static List<String> revocationScript(RevocationStore store) {
        List<String> trace = new ArrayList<>();
        store.add(new Revocation(RevocationTarget.SID, "s1", "stolen", T0, "root"));
        store.add(new Revocation(RevocationTarget.SUB, "alice", "first", T0.plusSeconds(1), "root"));
        store.add(new Revocation(RevocationTarget.SUB, "alice", "second", T0.plusSeconds(5), "root"));
        store.add(new Revocation(RevocationTarget.SUB, "alice", "older arrives late", T0.plusSeconds(3), "root"));
        trace.add("s1 " + store.lookup("s1", "x").sessionRevoked());
        trace.add("s2 " + store.lookup("s2", "x").sessionRevoked());
        trace.add("alice " + store.lookup("s2", "alice").subjectRevokedAt().orElseThrow());
        store.current(T0.plusSeconds(10)).forEach(r -> trace.add("list " + r.target() + " " + r.value() + " " + r.reason()));
        store.add(new Revocation(RevocationTarget.SID, "s3", "", T0.plus(Duration.ofHours(13)), "root"));
        store.current(T0.plus(Duration.ofHours(13))).forEach(r -> trace.add("later " + r.value()));
        return trace;
    }

    /** Entries of tenants beside entries without one: each voids only its tenant's sessions, none replaces another. */
    private static List<String> tenantScript(RevocationStore store) {
        List<String> trace = new ArrayList<>();
        store.add(new Revocation(RevocationTarget.SUB, "root", "every tenant", T0, "admin"));
        store.add(new Revocation(RevocationTarget.SUB, "root", "acme only", T0.plusSeconds(5), "ann", "acme"));
        store.add(new Revocation(RevocationTarget.SID, "s1", "", T0.plusSeconds(6), "gus", "globex"));
        store.add(new Revocation(RevocationTarget.SUB, "root", "acme, older", T0.plusSeconds(2), "ann", "acme"));
        for (String tenant : List.of("", "acme", "globex")) {
            RevocationFacts facts = store.lookup("s1", "root", tenant);
            trace.add("[" + tenant + "] sid " + facts.sessionRevoked() + " sub " + facts.subjectRevokedAt().orElseThrow());
        }
        store.current(T0.plusSeconds(10)).forEach(r -> trace.add("list " + r.value() + " " + r.reason() + " [" + r.tenant() + "]"));
        return trace;
    }

    @Test
    void theRedisBlocklistKeepsTenantsApart_likeTheMemoryOne() {
        redisServer.flushAll();
        List<String> memory = tenantScript(new InMemoryRevocationStore(Duration.ofHours(12)));
        List<String> shared = tenantScript(new RedisRevocationStore(redis, Duration.ofHours(12), 1000, AT_T0, AT_T0));
        assertThat(memory).containsExactly(
                "[] sid false sub " + T0,
                "[acme] sid false sub " + T0.plusSeconds(5),
                "[globex] sid true sub " + T0,
                "list root every tenant []",
                "list root acme only [acme]",
                "list s1  [globex]");
        assertThat(shared).isEqualTo(memory);
    }

    @Test
    void theRedisBlocklistBehavesLikeTheMemoryOne() {
        redisServer.flushAll();
        List<String> memory = revocationScript(new InMemoryRevocationStore(Duration.ofHours(12)));
        List<String> shared = revocationScript(new RedisRevocationStore(redis, Duration.ofHours(12), 1000, AT_T0, AT_T0));
        assertThat(shared).isEqualTo(memory);
        assertThat(memory).contains("list SUB alice second", "later s3").doesNotContain("later s1");
    }

    @Test
    void theVoidAllTime_isShownByTheStore_evenBeforeALookupMeetsTheLoss() {
        redisServer.flushAll();
        RedisRevocationStore store = new RedisRevocationStore(redis, Duration.ofHours(12), 1000, AT_T0, AT_T0);
        assertThat(store.allSessionsRevokedAt(T0)).as("started on an empty store").contains(T0.minusSeconds(1));
        assertThat(new InMemoryRevocationStore(Duration.ofHours(12)).allSessionsRevokedAt(T0))
                .as("a blocklist in memory cannot lose entries while it runs").isEmpty();

        redisServer.flushAll();

        assertThat(store.allSessionsRevokedAt(T0.plusSeconds(30))).as("the loss is found by the list itself, at the store's clock")
                .contains(T0);
        assertThat(store.lookup("any", "anyone").subjectRevokedAt()).contains(T0);
        assertThat(store.allSessionsRevokedAt(T0.plus(Duration.ofHours(12)).plusSeconds(1))).as("past the retention").isEmpty();
    }

    @Test
    void aFullSharedBlocklistRefusesNewEntries() {
        redisServer.flushAll();
        RedisRevocationStore small = new RedisRevocationStore(redis, Duration.ofHours(12), 2, AT_T0, AT_T0);
        small.add(new Revocation(RevocationTarget.SID, "a", "", T0, "root"));
        small.add(new Revocation(RevocationTarget.SID, "b", "", T0, "root"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> small.add(new Revocation(RevocationTarget.SID, "c", "", T0, "root")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("blocklist");
    }

    private static Principal admin(String name, String tenant) {
        return new Principal(name, name, AuthKind.SESSION, tenant, Set.of("admin"), Optional.of(name + "-sid"));
    }

    /** Revokes new sids as {@code by} until one is refused: how many it took. */
    private static int revokeUntilRefused(RevocationService revocations, Principal by, List<String> trace) {
        for (int i = 0; i < 200; i++) {
            try {
                revocations.revoke(RevocationTarget.SID, by.tenant() + "-" + i, "flood", by);
            } catch (IllegalStateException e) {
                trace.add("[" + by.tenant() + "] refused " + e.getClass().getSimpleName());
                return i;
            }
        }
        return 200;
    }

    private static String logout(SessionService sessions, String tenant) {
        SessionClaims session = sessions.open(new SessionSubject("user", "User", List.of("viewer"), tenant));
        try {
            sessions.close(session);
        } catch (IllegalStateException e) {
            return "refused";
        }
        return sessions.check(session) instanceof SessionCheck.Revoked ? "ended" : "still valid";
    }

    /**
     * A list of 100: one tenant fills its share, then others revoke and log out; then many tenants
     * fill theirs, admins without a tenant and logouts take what is kept for them.
     */
    private static List<String> shareScript(RevocationStore store) {
        List<String> trace = new ArrayList<>();
        RevocationService revocations = new RevocationService(store, AT_T0);
        SessionService sessions = new SessionService(AT_T0, new SecureRandom(), Duration.ofHours(12), store);
        int acme = revokeUntilRefused(revocations, admin("ann", "acme"), trace);
        trace.add("acme took " + acme);
        boolean kept = true;
        for (int i = 0; i < acme; i++) {
            kept &= store.lookup("acme-" + i, "nobody", "acme").sessionRevoked();
        }
        trace.add("acme's entries kept " + kept);
        trace.add("globex revokes " + revocations.revoke(RevocationTarget.SUB, "gina", "stolen", admin("gus", "globex")).tenant());
        trace.add("acme logout " + logout(sessions, "acme"));
        trace.add("operator logout " + logout(sessions, ""));
        int tenants = 0;
        for (int t = 0; t < 20; t++) {
            tenants += revokeUntilRefused(revocations, admin("admin", "tenant-" + t), new ArrayList<>());
        }
        trace.add("tenants took " + tenants);
        trace.add("operators took " + revokeUntilRefused(revocations, admin("alice", ""), trace));
        int logouts = 0;
        while (logouts < 200 && logout(sessions, "acme").equals("ended")) {
            logouts++;
        }
        trace.add("then logouts took " + logouts);
        trace.add("entries " + store.current(T0).size());
        return trace;
    }

    @Test
    void aTenantFillsOnlyItsShareOfTheSharedBlocklist_soOthersStillRevokeAndEveryoneLogsOut_likeTheMemoryOne() {
        redisServer.flushAll();
        List<String> memory = shareScript(new InMemoryRevocationStore(Duration.ofHours(12), 100, AT_T0));
        List<String> shared = shareScript(new RedisRevocationStore(redis, Duration.ofHours(12), 100, AT_T0, AT_T0));
        assertThat(memory).containsExactly(
                "[acme] refused TenantShareFullException",
                "acme took 10",
                "acme's entries kept true",
                "globex revokes globex",
                "acme logout ended",
                "operator logout ended",
                // 1 + 10 + 1 + 1 entries before: the other tenants fill the list up to 80
                "tenants took 67",
                "[] refused BlocklistFullException",
                "operators took 10",
                "then logouts took 10",
                "entries 100");
        assertThat(shared).isEqualTo(memory);
    }
}
