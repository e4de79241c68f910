package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.testkit.redis.RedisServerProcess;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Every replica deletes expired entries from the shared blocklist when it adds one, and each has its
 * own clock. What has expired is decided by the adding replica's clock, less a margin for the others'
 * clocks, never by the new entry's time: an entry stamped ahead, or a replica whose clock runs
 * ahead, deleted entries the other replicas still needed, and a deletion lowers no count, so no one
 * noticed that revoked sessions were accepted again.
 *
 * <p>These tests move their clocks by hours, so each store is compared against the test's clock in
 * place of the Redis server's; {@link SharedStoreClockAgreementIT} covers that comparison.
 */
@Tag("backend")
class SharedStoreClockSkewIT {
    private static final Duration LIFETIME = Duration.ofHours(12);
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private RedisServerProcess server;
    private RedisConnection redis;

    @BeforeEach
    void start() {
        server = RedisServerProcess.start();
        redis = RedisConnection.connect(server.url());
    }

    @AfterEach
    void stop() {
        if (redis != null) {
            redis.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anEntryStampedAheadOfTheClock_deletesNoEntryStillInForce() {
        RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, new ManualClock(T0), new ManualClock(T0));
        store.add(sid("stolen", T0.minus(Duration.ofHours(11)))); // in force for another hour

        store.add(sid("ahead", T0.plus(Duration.ofHours(2))));

        assertThat(store.lookup("stolen", "victor").sessionRevoked()).as("the revoked session must stay refused").isTrue();
        assertThat(store.current(T0)).extracting(Revocation::value).containsExactlyInAnyOrder("stolen", "ahead");
    }

    @Test
    void aReplicaWhoseClockRunsAheadWithinTheMargin_deletesNoEntryAnotherReplicaStillNeeds() {
        ManualClock clockA = new ManualClock(T0);
        ManualClock clockB = new ManualClock(T0.plus(RedisRevocationStore.CLOCK_SKEW_MARGIN).minusSeconds(1));
        // the margin alone: each replica compared against its own clock (the server's would refuse replica B)
        RedisRevocationStore replicaA = new RedisRevocationStore(redis, LIFETIME, 1000, clockA, clockA);
        RedisRevocationStore replicaB = new RedisRevocationStore(redis, LIFETIME, 1000, clockB, clockB);
        replicaA.add(sid("stolen", T0.minus(LIFETIME).plusMillis(500))); // by replica A's clock, in force for half a second

        replicaB.add(sid("other", clockB.instant()));

        assertThat(replicaA.lookup("stolen", "victor").sessionRevoked()).as("the revoked session must stay refused on replica A")
                .isTrue();
    }

    @Test
    void anEntryPastTheRetentionAndTheMargin_isDeletedByTheClock_evenWhenTheNewEntryIsStampedBehindIt() {
        ManualClock clock = new ManualClock(T0);
        RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, clock, clock);
        store.add(sid("old", T0));
        clock.advance(LIFETIME.plus(RedisRevocationStore.CLOCK_SKEW_MARGIN).plusSeconds(1));

        store.add(sid("late-line", T0.plusSeconds(1))); // stamped long before the clock: the clock decides, not the stamp

        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            assertThat(jedis.zcard("omcp:revocations:index")).as("only the entry added last is kept").isEqualTo(1);
            assertThat(jedis.hlen("omcp:revocations:entries")).isEqualTo(1);
        }
        assertThat(store.lookup("old", "nobody").sessionRevoked()).isFalse();
        assertThat(store.lookup("late-line", "nobody").sessionRevoked()).isTrue();
    }

    private static Revocation sid(String sid, Instant at) {
        return new Revocation(RevocationTarget.SID, sid, "", at, "admin");
    }
}
