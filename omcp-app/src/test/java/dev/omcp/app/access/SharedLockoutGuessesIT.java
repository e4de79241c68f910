package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.redis.RedisAccountLocks;
import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.core.auth.InMemoryRevocationStore;
import dev.omcp.core.auth.LoginAttemptsPerAddress;
import dev.omcp.core.auth.PasswordLoginService;
import dev.omcp.core.auth.SessionService;
import dev.omcp.core.auth.VerificationSlots;
import dev.omcp.ports.auth.LocalUser;
import dev.omcp.ports.auth.LockoutPolicy;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.PasswordHasher;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.testkit.auth.ConcurrentGuesses;
import dev.omcp.testkit.redis.RedisServerProcess;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Spec 3.3 with the lock state in Redis: wrong passwords for one account sent at once through two
 * replicas get no more password verifications than the lockout allows.
 */
@Tag("backend")
class SharedLockoutGuessesIT {
    private static final Clock AT_T0 = Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC);

    @Test
    void concurrentWrongGuessesThroughTwoReplicas_getNoMoreVerificationsThanTheLockoutAllows() throws Exception {
        ConcurrentGuesses gate = new ConcurrentGuesses(new DigestHasher());
        LocalUser alice = new LocalUser("alice", "Alice", List.of("operator"), gate.hash("correct horse 1"), "acme");
        try (RedisServerProcess server = RedisServerProcess.start();
                RedisConnection first = RedisConnection.connect(server.url());
                RedisConnection second = RedisConnection.connect(server.url())) {
            PasswordLogin one = replica(first, gate, alice);
            PasswordLogin other = replica(second, gate, alice);
            // guesses alternate between the replicas (ConcurrentGuesses sends guess i from 192.0.2.(i+1))
            PasswordLogin balanced = new PasswordLogin() {
                @Override
                public LoginResult login(String username, String password, String clientIp) {
                    return (Integer.parseInt(clientIp.substring(clientIp.lastIndexOf('.') + 1)) % 2 == 0 ? one : other)
                            .login(username, password, clientIp);
                }

                @Override
                public boolean isKnownUser(String username) {
                    return one.isKnownUser(username);
                }
            };

            ConcurrentGuesses.Outcome outcome = gate.guess(balanced, "alice", IntStream.range(0, 24).mapToObj(i -> "guess " + i).toList());

            // spec 3.3: 5 failures lock the account
            assertThat(outcome.verifications()).isEqualTo(5);
            assertThat(outcome.count(LoginResult.InvalidCredentials.class)).isEqualTo(4);
            assertThat(outcome.count(LoginResult.AccountLocked.class)).isEqualTo(20);
            assertThat(new RedisAccountLocks(second).lockedUntil("alice", AT_T0.instant())).contains(AT_T0.instant().plusSeconds(60));
        }
    }

    private static PasswordLogin replica(RedisConnection redis, PasswordHasher hasher, LocalUser user) {
        SessionService sessions = new SessionService(AT_T0, new SecureRandom(), Duration.ofHours(12),
                new InMemoryRevocationStore(Duration.ofHours(12)));
        return new PasswordLoginService(name -> name.equals(user.username()) ? Optional.of(user) : Optional.empty(), hasher,
                new RedisAccountLocks(redis), Optional.of(LockoutPolicy.DEFAULT), sessions, AT_T0,
                new VerificationSlots(24, 0, Duration.ofSeconds(5)), new LoginAttemptsPerAddress(), new SecureRandom());
    }

    /** Salted SHA-512 in the scrypt hash format: fast, as this test is about counting, not hashing. */
    private static final class DigestHasher implements PasswordHasher {
        private final SecureRandom random = new SecureRandom();

        @Override
        public PasswordHash hash(String password) {
            byte[] salt = new byte[PasswordHash.SALT_BYTES];
            random.nextBytes(salt);
            return new PasswordHash(PasswordHash.MINT_N, PasswordHash.MINT_R, PasswordHash.MINT_P, salt, digest(salt, password));
        }

        @Override
        public boolean verify(String password, PasswordHash hash) {
            return MessageDigest.isEqual(digest(hash.salt(), password), hash.hash());
        }

        private static byte[] digest(byte[] salt, String password) {
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-512");
                digest.update(salt);
                return digest.digest(password.getBytes(StandardCharsets.UTF_8));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
