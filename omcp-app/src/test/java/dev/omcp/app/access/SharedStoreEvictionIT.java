package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.testkit.redis.RedisServerProcess;
import dev.omcp.testkit.time.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A Redis with {@code maxmemory} and a {@code volatile-*} eviction policy (the default of several
 * managed Redis services) evicts only keys that have an expiry. The blocklist's epoch has none, so
 * a lost entry would go unnoticed: the entries a lookup reads must not be evictable either.
 */
@Tag("backend")
class SharedStoreEvictionIT {
    private static final Duration LIFETIME = Duration.ofHours(12);

    @Test
    void underAVolatileEvictionPolicy_aRevokedSessionStaysRevoked_whenTheServerRunsOutOfMemory() {
        try (RedisServerProcess server = RedisServerProcess.start(List.of("--maxmemory", "4mb", "--maxmemory-policy", "volatile-ttl"),
                Optional.empty()); RedisConnection redis = RedisConnection.connect(server.url())) {
            Clock clock = Clock.systemUTC();
            RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, clock);
            Instant now = clock.instant();
            store.add(new Revocation(RevocationTarget.SID, "stolen", "laptop lost", now, "admin"));
            store.add(new Revocation(RevocationTarget.SUB, "mallory", "left", now, "admin"));

            // another program's cache entries, which expire later than the blocklist's retention
            try (Jedis other = new Jedis("127.0.0.1", server.port())) {
                String value = "x".repeat(10_000);
                // 15 MB through 4 MB: the server evicts about a thousand keys, by its sampling
                for (int i = 0; i < 1500; i++) {
                    other.setex("cache:" + i, Duration.ofDays(2).toSeconds(), value);
                }
                assertThat(evictedKeys(other)).as("the server had to evict").isGreaterThan(500);
            }

            assertThat(store.lookup("stolen", "bob").sessionRevoked()).as("a revoked session must stay revoked").isTrue();
            assertThat(store.lookup("other", "mallory").subjectRevokedAt()).as("a revoked subject must stay revoked").isPresent();
            assertThat(store.allSessionsRevokedAt(clock.instant())).as("the sessions voided at the start stay void").isPresent();
        }
    }

    @Test
    void withoutExpiry_theEntriesPastTheRetentionByTheClockAreDeleted_whenTheNextOneIsAdded() {
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url());
                Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            Instant t0 = Instant.parse("2026-03-01T10:00:00Z");
            ManualClock clock = new ManualClock(t0);
            RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, clock, clock);
            store.add(new Revocation(RevocationTarget.SID, "old", "", t0, "admin"));
            store.add(new Revocation(RevocationTarget.SUB, "alice", "", t0, "admin"));
            clock.advance(LIFETIME.plus(RedisRevocationStore.CLOCK_SKEW_MARGIN).plusSeconds(1)); // the clock decides, not the entry
            store.add(new Revocation(RevocationTarget.SID, "new", "", clock.instant(), "admin"));

            assertThat(jedis.keys("omcp:revoked:s*")).as("only the entry still in force is kept").hasSize(1);
            String kept = jedis.keys("omcp:revoked:s*").iterator().next();
            assertThat(jedis.pttl(kept)).as("no expiry an eviction policy could pick").isEqualTo(-1);
            assertThat(jedis.pttl("omcp:revoked:all")).isEqualTo(-1);
            assertThat(jedis.hlen("omcp:revocations:entries")).isEqualTo(1);
        }
    }

    private static long evictedKeys(Jedis jedis) {
        return jedis.info("stats").lines().filter(line -> line.startsWith("evicted_keys:"))
                .mapToLong(line -> Long.parseLong(line.substring("evicted_keys:".length()).trim())).findFirst().orElse(0);
    }
}
