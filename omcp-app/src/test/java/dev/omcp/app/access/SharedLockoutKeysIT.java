package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.redis.RedisAccountLocks;
import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.ports.auth.LockoutPolicy;
import dev.omcp.testkit.redis.RedisServerProcess;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** How long the lockout's keys stay in the shared store. */
@Tag("backend")
class SharedLockoutKeysIT {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void failedLoginsForANameNeverLocked_leaveKeysOnlyForTheFailureWindow_notTheStreakMemory() {
        // before: one failed login for any invented name kept a hash for 24 hours (the streak memory), so a spray of
        // names piled up keys for a day although nothing about a never-locked account outlives its failures
        LockoutPolicy policy = LockoutPolicy.DEFAULT;
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url());
                Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            RedisAccountLocks locks = new RedisAccountLocks(redis);
            locks.recordFailure("invented-1", T0, policy);

            assertThat(jedis.keys("omcp:lockout:*")).hasSize(2).allSatisfy(key ->
                    assertThat(jedis.pttl(key)).as(key).isPositive().isLessThanOrEqualTo(policy.window().toMillis()));
        }
    }

    @Test
    void anAccountThatWasLocked_keepsItsStreakForTheStreakMemory() {
        LockoutPolicy policy = LockoutPolicy.DEFAULT;
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url());
                Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            RedisAccountLocks locks = new RedisAccountLocks(redis);
            for (int i = 0; i < policy.maxFailures(); i++) {
                locks.recordFailure("alice", T0.plusSeconds(i), policy);
            }
            assertThat(locks.lockedUntil("alice", T0.plusSeconds(policy.maxFailures()))).isPresent();
            // a failure after the lock ended still remembers the streak: the next lock is longer
            Instant afterLock = T0.plus(policy.baseLock()).plusSeconds(60);
            locks.recordFailure("alice", afterLock, policy);

            assertThat(jedis.keys("omcp:lockout:*:state")).singleElement().satisfies(key ->
                    assertThat(jedis.pttl(key)).as(key).isGreaterThan(policy.window().toMillis()));
        }
    }
}
