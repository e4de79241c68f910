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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link RedisConnection} against a real redis-server: URL forms with credentials, TLS and a
 * database number, errors that never echo a password, and a hung server under many concurrent
 * callers (every call ends within the timeouts, as "unavailable").
 */
@Tag("backend")
class RedisConnectionIT {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final String PASSWORD = "s3cret:p@ss/word";
    private static final String ENCODED = "s3cret%3Ap%40ss%2Fword";

    @Test
    void aHungServer_failsEveryConcurrentCallAsUnavailable_withinTheTimeouts() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url())) {
            RedisRevocationStore store = new RedisRevocationStore(redis, Duration.ofHours(12), 1000, Clock.systemUTC());
            server.freeze();
            try {
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                ConcurrentLinkedQueue<Object> answers = new ConcurrentLinkedQueue<>();
                CountDownLatch go = new CountDownLatch(1);
                List<Thread> threads = new ArrayList<>();
                // more callers than connections: some wait for a connection, and that wait is bounded too
                for (int i = 0; i < 40; i++) {
                    String sid = "s" + i;
                    threads.add(Thread.ofVirtual().start(() -> {
                        try {
                            go.await();
                            answers.add(store.lookup(sid, "alice"));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (RuntimeException e) {
                            failures.add(e);
                        }
                    }));
                }
                long started = System.nanoTime();
                go.countDown();
                for (Thread thread : threads) {
                    thread.join(Duration.ofSeconds(30));
                }
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(threads).noneMatch(Thread::isAlive);
                assertThat(answers).as("no lookup may answer while the server does not").isEmpty();
                assertThat(failures).hasSize(40).allSatisfy(e -> assertThat(e).isInstanceOf(SharedStateUnavailableException.class)
                        .hasMessageContaining("OMCP_REDIS_URL"));
                assertThat(took).isLessThan(Duration.ofSeconds(15));
            } finally {
                server.thaw();
            }
            assertThat(store.lookup("s1", "alice").sessionRevoked()).as("usable again once the server answers").isFalse();
        }
    }

    @Test
    void afterARestart_theConnectionsTheServerClosedAreReplaced_notReportedAsAnOutage() throws Exception {
        RedisServerProcess server = RedisServerProcess.start();
        try (RedisConnection redis = RedisConnection.connect(server.url())) {
            RedisAccountLocks locks = new RedisAccountLocks(redis);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                // several commands at once leave several idle connections in the pool
                threads.add(Thread.ofVirtual().start(() -> locks.lockedUntil("alice", T0)));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            server = server.restart();

            assertThat(locks.lockedUntil("alice", T0)).isEmpty();
            assertThat(locks.lockedUntil("alice", T0)).isEmpty();
        } finally {
            server.close();
        }
    }

    @Test
    void aPasswordInTheUrl_percentEncoded_authenticates_andAWrongOneIsNamedWithoutEchoingIt() {
        try (RedisServerProcess server = RedisServerProcess.start(List.of("--requirepass", PASSWORD), Optional.of(PASSWORD))) {
            String hostPort = "127.0.0.1:" + server.port();
            try (RedisConnection redis = RedisConnection.connect("redis://:" + ENCODED + "@" + hostPort)) {
                RedisAccountLocks locks = new RedisAccountLocks(redis);
                locks.recordFailure("alice", T0, LockoutPolicy.DEFAULT);
                assertThat(locks.lockedUntil("alice", T0)).isEmpty();
                assertThat(redis.description()).isEqualTo("redis://" + hostPort).doesNotContain("s3cret");
            }
            assertThatThrownBy(() -> RedisConnection.connect("redis://:wrong-password-42@" + hostPort))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("refused the credentials")
                    .hasMessageNotContaining("wrong-password-42");
            assertThatThrownBy(() -> RedisConnection.connect("redis://" + hostPort))
                    .as("no password at all").isInstanceOf(IllegalStateException.class).hasMessageContaining(hostPort);
        }
    }

    @Test
    void anAclUserLimitedToTheGatewaysKeys_isEnough() {
        List<String> acl = List.of("--user", "omcp", "on", ">" + PASSWORD, "~omcp:*", "+@all", "-@dangerous");
        try (RedisServerProcess server = RedisServerProcess.start(acl, Optional.empty());
                RedisConnection redis = RedisConnection.connect("redis://omcp:" + ENCODED + "@127.0.0.1:" + server.port())) {
            // the server's clock, which the store reads (TIME) and such a user may read
            RedisRevocationStore store = new RedisRevocationStore(redis, Duration.ofHours(12), 1000, Clock.systemUTC());
            store.add(new Revocation(RevocationTarget.SID, "s1", "", Instant.now(), "root"));
            assertThat(store.lookup("s1", "alice").sessionRevoked()).isTrue();
            RedisAccountLocks locks = new RedisAccountLocks(redis);
            for (int i = 0; i < 5; i++) {
                locks.recordFailure("alice", T0, LockoutPolicy.DEFAULT);
            }
            assertThat(locks.lockedUntil("alice", T0)).isPresent();
        }
    }

    @Test
    void aTlsUrlToAPlainServer_failsWithinTheTimeouts_suggestingToCheckTls() {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            long started = System.nanoTime();
            assertThatThrownBy(() -> RedisConnection.connect("rediss://:" + ENCODED + "@127.0.0.1:" + server.port()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rediss://127.0.0.1:" + server.port())
                    .hasMessageContaining("TLS")
                    .hasMessageNotContaining("s3cret");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
        }
    }

    @Test
    void aDatabaseNumberBeyondTheServersDatabases_isRefusedAtStart_sayingWhatToDo() {
        try (RedisServerProcess server = RedisServerProcess.start(List.of("--databases", "4"), Optional.empty())) {
            // before: "does not answer: JedisDataException", although the server answered
            assertThatThrownBy(() -> RedisConnection.connect("redis://:" + ENCODED + "@127.0.0.1:" + server.port() + "/4"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("redis://127.0.0.1:" + server.port())
                    .hasMessageContaining("has no database 4")
                    .hasMessageContaining("use a lower number")
                    .hasMessageNotContaining("does not answer")
                    .hasMessageNotContaining("s3cret");
            try (RedisConnection last = RedisConnection.connect(server.url() + "/3")) {
                assertThat(new RedisAccountLocks(last).lockedUntil("alice", T0)).isEmpty();
            }
        }
    }

    @Test
    void aServerThatWantsAPassword_whenTheUrlHasNone_saysTheUrlHasNone() {
        try (RedisServerProcess server = RedisServerProcess.start(List.of("--requirepass", PASSWORD), Optional.of(PASSWORD))) {
            // before: "refused the credentials: check the user and password in the URL", of a URL without any
            assertThatThrownBy(() -> RedisConnection.connect(server.url()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("asks for credentials and the URL has none")
                    .hasMessageContaining("redis://:password@host:port");
        }
    }

    @Test
    void twoDeploymentsOnOneServer_keepApartWithADatabaseNumberInTheUrl() {
        try (RedisServerProcess server = RedisServerProcess.start();
                RedisConnection first = RedisConnection.connect(server.url() + "/1");
                RedisConnection second = RedisConnection.connect(server.url() + "/2")) {
            RedisAccountLocks one = new RedisAccountLocks(first);
            for (int i = 0; i < 5; i++) {
                one.recordFailure("admin", T0, LockoutPolicy.DEFAULT);
            }
            assertThat(one.lockedUntil("admin", T0)).isPresent();
            assertThat(new RedisAccountLocks(second).lockedUntil("admin", T0)).as("the other deployment's admin").isEmpty();
        }
    }
}
