package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.redis.RedisAccountLocks;
import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.ports.auth.LockoutPolicy;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.testkit.redis.RedisServerProcess;
import dev.omcp.testkit.time.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Replicas delete expired entries from the shared blocklist by their own clocks, with a 5-minute
 * margin. A replica whose clock ran further ahead deleted entries the others still needed, and
 * their revoked sessions were accepted again, unnoticed. So each replica measures its clock against
 * the Redis server's (the real one here) and refuses while it is too far off: at the start, and when
 * its clock jumps later.
 */
@Tag("backend")
class SharedStoreClockAgreementIT {
    private static final Duration LIFETIME = Duration.ofHours(12);

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
    void aReplicaWhoseClockRunsFarAhead_deletesNoEntryAnotherReplicaStillNeeds() {
        RedisRevocationStore onTime = new RedisRevocationStore(redis, LIFETIME, 1000, Clock.systemUTC());
        onTime.add(sid("stolen", Instant.now().minus(LIFETIME).plus(Duration.ofMinutes(1)))); // in force for another minute
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(7));

        try {
            new RedisRevocationStore(redis, LIFETIME, 1000, ahead).add(sid("other", ahead.instant()));
        } catch (SharedStateUnavailableException refused) {
            // what the fix does: the replica does not start
        }

        assertThat(onTime.lookup("stolen", "victor").sessionRevoked()).as("the revoked session must stay refused").isTrue();
    }

    @Test
    void aReplicaWhoseClockIsFarFromTheServers_refusesToStart_namingTheOffsetAndTheFix_beforeWritingAnything() {
        Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-3));

        assertThatThrownBy(() -> new RedisRevocationStore(redis, LIFETIME, 1000, behind))
                .isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageMatching("(?s).*clock is (2 min 59 s|3 min) behind .*") // less the time the measurement takes
                .hasMessageContaining(redis.description())
                .hasMessageContaining("NTP");
        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            assertThat(jedis.keys("omcp:*")).as("no epoch and no void time set by a clock that is off").isEmpty();
        }
    }

    @Test
    void aReplicaWithinTheClockLimitOfTheServer_starts() {
        Clock ahead = Clock.offset(Clock.systemUTC(), RedisRevocationStore.MAX_CLOCK_OFFSET.minusSeconds(5));
        RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, ahead);

        store.add(sid("stolen", ahead.instant()));

        assertThat(store.lookup("stolen", "victor").sessionRevoked()).isTrue();
    }

    @Test
    void aClockThatJumpsAfterTheStart_isRefusedBeforeItDeletesAnything_andTheReplicaRecoversOnceItIsBack() {
        RedisRevocationStore onTime = new RedisRevocationStore(redis, LIFETIME, 1000, Clock.systemUTC());
        onTime.add(sid("stolen", Instant.now().minus(LIFETIME).plus(Duration.ofMinutes(1))));
        Instant started = Instant.now();
        ManualClock jumping = new ManualClock(started);
        RedisRevocationStore replica = new RedisRevocationStore(redis, LIFETIME, 1000, jumping);

        jumping.advance(Duration.ofMinutes(7));

        assertThatThrownBy(() -> replica.add(sid("other", jumping.instant()))).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("ahead");
        assertThat(onTime.lookup("stolen", "victor").sessionRevoked()).as("the revoked session must stay refused").isTrue();
        assertThatThrownBy(() -> replica.lookup("stolen", "victor")).as("nor does it judge sessions by that clock")
                .isInstanceOf(SharedStateUnavailableException.class);

        jumping.set(Instant.now());
        assertThat(replica.lookup("stolen", "victor").sessionRevoked()).as("back in agreement, it works again").isTrue();
    }

    /**
     * An NTP step back of minutes would let this replica accept sessions whose entries another replica
     * has deleted; the next read measures again rather than going by a measurement up to 30 s old.
     */
    @Test
    void aClockThatStepsBack_isRefusedAtTheNextRead_notUpTo30sLater() {
        ManualClock stepping = new ManualClock(Instant.now());
        RedisRevocationStore replica = new RedisRevocationStore(redis, LIFETIME, 1000, stepping);
        assertThat(replica.lookup("any", "victor").sessionRevoked()).isFalse();

        stepping.set(Instant.now().minus(Duration.ofMinutes(7)));

        assertThatThrownBy(() -> replica.lookup("any", "victor")).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("behind");
    }

    /**
     * The admin list keeps the entries revoked within a session lifetime by this replica's clock: one
     * stepped off would leave out entries still in force, or show ones past it, as if that were so.
     */
    @Test
    void theRevocationList_isRefusedToo_whileTheClockIsOff() {
        ManualClock stepping = new ManualClock(Instant.now());
        RedisRevocationStore replica = new RedisRevocationStore(redis, LIFETIME, 1000, stepping);
        replica.add(sid("stolen", stepping.instant()));

        stepping.set(Instant.now().plus(LIFETIME));

        assertThatThrownBy(() -> replica.current(stepping.instant())).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("ahead");
        stepping.set(Instant.now());
        assertThat(replica.current(stepping.instant())).extracting(Revocation::value).containsExactly("stolen");
    }

    /**
     * Login locks are pruned and judged by the replica's clock too: one running ahead would delete the
     * other replicas' recent failures (the window looks past) and see every lock end early.
     */
    @Test
    void loginLocks_refuseAClockFarFromTheServers_atTheStartAndWhenItJumps_beforeDeletingAnyFailure() {
        RedisAccountLocks onTime = new RedisAccountLocks(redis, Clock.systemUTC());
        Instant now = Instant.now();
        onTime.recordFailure("alice", now, LockoutPolicy.DEFAULT);

        assertThatThrownBy(() -> new RedisAccountLocks(redis, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-3))))
                .isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining("behind").hasMessageContaining("NTP");

        ManualClock jumping = new ManualClock(now);
        RedisAccountLocks replica = new RedisAccountLocks(redis, jumping);
        jumping.advance(LockoutPolicy.DEFAULT.window().plusMinutes(1));
        assertThatThrownBy(() -> replica.recordFailure("alice", jumping.instant(), LockoutPolicy.DEFAULT))
                .isInstanceOf(SharedStateUnavailableException.class).hasMessageContaining("ahead");

        assertThat(onTime.recordFailure("alice", Instant.now(), LockoutPolicy.DEFAULT).failuresInWindow())
                .as("the first failure is still counted").isEqualTo(2);
    }

    private static Revocation sid(String sid, Instant at) {
        return new Revocation(RevocationTarget.SID, sid, "", at, "admin");
    }
}
