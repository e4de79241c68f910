package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.redis.RedisAccountLocks;
import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.testkit.redis.RedisServerProcess;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A server that answers, but with an error reply (out of memory, a read-only replica, a missing
 * ACL permission, a key of another type), is reported as a refusal with the server's error code and
 * what to do, still as {@link SharedStateUnavailableException} (fail closed), never as a server that
 * "did not answer".
 */
@Tag("backend")
class SharedStoreRefusalsIT {
    private static final Duration LIFETIME = Duration.ofHours(12);

    @Test
    void aServerOutOfMemory_isReportedAsItsOomRefusal_notAsAServerThatDoesNotAnswer() {
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url());
                Jedis admin = new Jedis("127.0.0.1", server.port())) {
            // a replica starting on a full server: the epoch it would set is refused
            admin.configSet("maxmemory", "1");
            assertThatThrownBy(() -> new RedisRevocationStore(redis, LIFETIME, 1000, Clock.systemUTC()))
                    .isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("OMCP_REDIS_URL")
                    .hasMessageContaining("refused")
                    .hasMessageContaining("OOM")
                    .hasMessageContaining("maxmemory")
                    .hasMessageNotContaining("did not answer");
        }
    }

    @Test
    void aReadOnlyReplica_isNamedAsSuch_soTheOperatorPointsTheUrlAtThePrimary() {
        try (RedisServerProcess server = RedisServerProcess.start(List.of("--replicaof", "127.0.0.1", "1"), Optional.empty());
                RedisConnection redis = RedisConnection.connect(server.url())) {
            assertThatThrownBy(() -> new RedisRevocationStore(redis, LIFETIME, 1000, Clock.systemUTC()))
                    .isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("READONLY")
                    .hasMessageContaining("primary")
                    .hasMessageNotContaining("did not answer");
        }
    }

    @Test
    void anAclUserWithoutAPermission_isNamedAsSuch_withThePermissionsItNeeds() {
        try (RedisServerProcess server = RedisServerProcess.start(List.of("--user", "gateway", "on", ">pw", "~omcp:*", "+@all", "-eval"),
                Optional.empty()); RedisConnection redis = RedisConnection.connect("redis://gateway:pw@127.0.0.1:" + server.port())) {
            assertThatThrownBy(() -> new RedisRevocationStore(redis, LIFETIME, 1000, Clock.systemUTC()))
                    .isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("NOPERM")
                    .hasMessageContaining("~omcp:*")
                    .hasMessageNotContaining("pw");
        }
    }

    @Test
    void aKeyOfAnotherTypeWhereTheGatewayKeepsItsState_isReportedAsWrongType() {
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url());
                Jedis other = new Jedis("127.0.0.1", server.port())) {
            RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, Clock.systemUTC());
            other.set("omcp:revocations:index", "another program's value");
            assertThatThrownBy(() -> store.current(Instant.now()))
                    .isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("WRONGTYPE")
                    .hasMessageContaining("own database");
        }
    }

    @Test
    void aNumberTheGatewayReadsThatIsNotOne_isRefusedAsAForeignValue_notAnInternalError() {
        try (RedisServerProcess server = RedisServerProcess.start(); RedisConnection redis = RedisConnection.connect(server.url());
                Jedis other = new Jedis("127.0.0.1", server.port())) {
            RedisRevocationStore store = new RedisRevocationStore(redis, LIFETIME, 1000, Clock.systemUTC());
            other.set("omcp:revoked:all", "yesterday");
            assertThatThrownBy(() -> store.lookup("s1", "alice"))
                    .isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("omcp:revoked:all")
                    .hasMessageContaining("own database");
            other.keys("omcp:*").forEach(other::del);
            other.hset("omcp:lockout:" + sha256("alice") + ":state", "until", "tomorrow");
            assertThatThrownBy(() -> new RedisAccountLocks(redis).lockedUntil("alice", Instant.now()))
                    .isInstanceOf(SharedStateUnavailableException.class)
                    .hasMessageContaining("own database");
        }
    }

    private static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
