package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.testkit.redis.RedisServerProcess;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A store that comes back with older data than the replicas saw: a server restarted from its last
 * RDB snapshot (the default persistence of redis-server), or a failover to a replica that lagged.
 * The blocklist's epoch survives such a loss, so the epoch alone cannot tell; the revocations added
 * since the snapshot are gone. And a loss one replica already handled must not void the sessions
 * issued since, again, when another replica meets it later.
 */
@Tag("backend")
class SharedStoreRollbackIT {
    private static final Duration LIFETIME = Duration.ofHours(12);
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private Path dataDir;
    private RedisServerProcess server;

    @BeforeEach
    void start() throws IOException {
        dataDir = Files.createTempDirectory("omcp-redis-rollback");
        // snapshots only when asked (SAVE), kept in a directory of this test's own
        server = RedisServerProcess.start(List.of("--dir", dataDir.toString()), Optional.empty());
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Test
    void aRevocationLostToARestartFromAnOlderSnapshot_isNotTrustedAway() {
        ManualClock clock = new ManualClock(T0);
        try (RedisConnection redis = RedisConnection.connect(server.url())) {
            RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, clock, clock);
            snapshot();
            clock.advance(Duration.ofMinutes(10));
            Instant revokedAt = clock.instant();
            store.add(new Revocation(RevocationTarget.SID, "stolen", "laptop lost", revokedAt, "admin"));
            assertThat(store.lookup("stolen", "victor").sessionRevoked()).isTrue();

            server = server.restart(); // loads the snapshot from before the revocation
            clock.advance(Duration.ofMinutes(1));

            RevocationFacts facts = store.lookup("stolen", "victor");
            assertThat(facts.sessionRevoked() || facts.subjectRevokedAt().filter(at -> !at.isBefore(revokedAt)).isPresent())
                    .as("the revoked session (issued before its revocation) must stay refused: %s", facts).isTrue();
            assertThat(store.allSessionsRevokedAt(clock.instant())).as("the list explains the logouts").isPresent();
        }
    }

    @Test
    void aRestartToASnapshotFromBeforeALossThisReplicaHandled_isALossAgain() {
        ManualClock clock = new ManualClock(T0);
        try (RedisConnection redis = RedisConnection.connect(server.url())) {
            RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, clock, clock);
            snapshot();
            clock.advance(Duration.ofMinutes(10));
            server.flushAll();
            store.lookup("any", "anyone"); // meets the loss: a new epoch, sessions until now void
            clock.advance(Duration.ofMinutes(10));
            Instant revokedAt = clock.instant();
            store.add(new Revocation(RevocationTarget.SUB, "mallory", "left", revokedAt, "admin"));

            server = server.restart(); // back to the first epoch, without mallory's revocation
            clock.advance(Duration.ofMinutes(1));

            assertThat(store.lookup("s1", "mallory").subjectRevokedAt()).as("mallory's sessions must stay refused")
                    .hasValueSatisfying(at -> assertThat(at).isAfterOrEqualTo(revokedAt));
        }
    }

    @Test
    void aReplicaMeetingALossAnotherReplicaHandled_keepsTheSessionsIssuedSince() {
        ManualClock clockA = new ManualClock(T0);
        ManualClock clockB = new ManualClock(T0);
        try (RedisConnection redis = RedisConnection.connect(server.url())) {
            RedisRevocationStore replicaA = new RedisRevocationStore(redis, LIFETIME, 1000, clockA, clockA);
            RedisRevocationStore replicaB = new RedisRevocationStore(redis, LIFETIME, 1000, clockB, clockB);
            clockA.advance(Duration.ofMinutes(10));
            clockB.advance(Duration.ofMinutes(10));
            server.flushAll();
            Instant lost = clockA.instant();
            assertThat(replicaA.lookup("s1", "alice").subjectRevokedAt()).contains(lost);

            // replica B, idle meanwhile, meets the loss an hour later: replica A voided what it had to
            clockB.advance(Duration.ofHours(1));
            assertThat(replicaB.lookup("s2", "bob").subjectRevokedAt())
                    .as("the sessions issued after replica A met the loss stay valid").contains(lost);
            assertThat(replicaA.allSessionsRevokedAt(clockA.instant())).contains(lost);
        }
    }

    private void snapshot() {
        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            assertThat(jedis.save()).isEqualTo("OK");
        }
    }
}
