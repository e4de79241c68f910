package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.ports.auth.BlocklistShares;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.TenantShareFullException;
import dev.omcp.testkit.redis.RedisServerProcess;
import dev.omcp.testkit.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A tenant's share of the shared session blocklist, against a real redis-server: counted in one
 * script with the add, so replicas revoking at once never together pass it, and freed as the
 * tenant's entries expire (docs/access-control.md, "Shares of the list").
 */
@Tag("backend")
class SharedBlocklistSharesIT {
    private static final Duration LIFETIME = Duration.ofHours(12);
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    /** A list of 1000: each tenant may hold 5. */
    private static final BlocklistShares SHARES = new BlocklistShares(1000, 5);

    private static Revocation byAcme(String sid, Instant at) {
        return new Revocation(RevocationTarget.SID, sid, "", at, "ann", "acme");
    }

    private static String tenantSet(String tenant) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(tenant.getBytes(StandardCharsets.UTF_8));
        return "omcp:revocations:tenant:" + HexFormat.of().formatHex(digest);
    }

    @Test
    void concurrentRevocationsOfOneTenantThroughTwoReplicas_neverTogetherPassItsShare() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection first = RedisConnection.connect(server.url());
                RedisConnection second = RedisConnection.connect(server.url())) {
            ManualClock clock = new ManualClock(T0);
            List<RedisRevocationStore> replicas = List.of(new RedisRevocationStore(first, LIFETIME, SHARES, clock, clock),
                    new RedisRevocationStore(second, LIFETIME, SHARES, clock, clock));
            AtomicInteger taken = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                RedisRevocationStore store = replicas.get(i % 2);
                String sid = "sid-" + i;
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        go.await();
                        store.addByAdmin(byAcme(sid, T0));
                        taken.incrementAndGet();
                    } catch (TenantShareFullException e) {
                        refused.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(taken).hasValue(5);
            assertThat(refused).hasValue(55);
            assertThat(replicas.get(1).current(T0)).hasSize(5);
        }
    }

    @Test
    void aTenantsShare_isFreedAsItsEntriesExpire_andItsCountKeepsNoKeyPastThem() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url());
                Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            ManualClock clock = new ManualClock(T0);
            RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, SHARES, clock, clock);
            for (int i = 0; i < 5; i++) {
                store.addByAdmin(byAcme("sid-" + i, T0.plusSeconds(i)));
            }
            store.add(new Revocation(RevocationTarget.SID, "logout", "logout", T0.plusSeconds(10), "victor", "acme"));
            assertThat(jedis.zcard(tenantSet("acme"))).as("a logout is the tenant's entry too").isEqualTo(6);
            assertThat(jedis.pttl(tenantSet("acme"))).as("no expiry an eviction policy could pick").isEqualTo(-1);

            assertThatThrownBy(() -> store.addByAdmin(byAcme("one-more", T0.plusSeconds(20))))
                    .isInstanceOfSatisfying(TenantShareFullException.class, e -> {
                        assertThat(e.tenant()).isEqualTo("acme");
                        assertThat(e.share()).isEqualTo(5);
                        assertThat(e.roomAt()).as("when the adding script deletes the oldest")
                                .isEqualTo(T0.plus(LIFETIME).plus(RedisRevocationStore.CLOCK_SKEW_MARGIN));
                    });
            store.addByAdmin(byAcme("sid-0", T0.plusSeconds(30))); // already there: no new entry, not refused
            store.addByAdmin(new Revocation(RevocationTarget.SID, "globex-1", "", T0, "gus", "globex"));

            // a member whose entry a replica of an older release deleted: it goes by its time
            jedis.zadd(tenantSet("acme"), T0.minus(Duration.ofHours(1)).toEpochMilli(), "tenant:gone:sid:left-behind");
            clock.advance(LIFETIME.plus(RedisRevocationStore.CLOCK_SKEW_MARGIN).plusSeconds(5));
            store.addByAdmin(byAcme("after-expiry", clock.instant()));

            assertThat(jedis.zrange(tenantSet("acme"), 0, -1)).as("only acme's entries still in the list")
                    .hasSize(3).noneMatch(member -> member.contains("left-behind"));
            assertThat(store.lookup("sid-0", "nobody", "acme").sessionRevoked()).isTrue();
            assertThat(store.lookup("sid-1", "nobody", "acme").sessionRevoked()).as("expired").isFalse();
            assertThat(jedis.exists(tenantSet("globex"))).as("globex's one entry has expired, and its set with it").isFalse();
        }
    }
}
