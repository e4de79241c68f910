package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.testkit.redis.RedisServerProcess;
import dev.omcp.testkit.time.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two gateway instances sharing one real Redis (OMCP_REDIS_URL / OMCP_STORE_URL): spec 3.3 and 3.4 across replicas. */
@Tag("backend")
class TwoReplicasIT {
    @TempDir
    Path dir;

    /** Within a minute of the server's clock, or the gateway refuses to start ({@link SharedStoreClockAgreementIT}). */
    private final ManualClock clock = new ManualClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    private RedisServerProcess redis;
    private TestGateway one;
    private TestGateway two;

    @BeforeEach
    void start() {
        redis = RedisServerProcess.start();
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_REDIS_URL", redis.url());
        one = TestGateway.start(env, clock);
        env.remove("OMCP_REDIS_URL");
        env.put("OMCP_STORE_URL", redis.url());
        two = TestGateway.start(env, clock);
    }

    @AfterEach
    void stop() {
        one.close();
        two.close();
        redis.close();
    }

    @Test
    void aLockTrippedThroughOneReplicaRefusesLoginsOnTheOther() {
        Browser first = one.browser();
        Browser second = two.browser();
        for (int i = 0; i < 3; i++) {
            assertThat(first.login("olivia", "wrong").status()).isEqualTo(401);
        }
        assertThat(second.login("olivia", "wrong").status()).isEqualTo(401);
        assertThat(second.login("olivia", "wrong").status()).as("the fifth failure, counted across replicas").isEqualTo(429);
        Browser.Reply refused = first.login("olivia", TestGateway.PASSWORD);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.header("Retry-After")).isEqualTo("60");
    }

    @Test
    void aRevocationPostedToOneReplicaRejectsTheSessionOnTheOther() {
        Browser victor = two.browser();
        assertThat(victor.login("victor", TestGateway.PASSWORD).status()).isEqualTo(200);
        String sid = victor.get("/api/me").json().path("sid").asText();
        Browser admin = one.browser();
        admin.login("alice", TestGateway.PASSWORD);
        assertThat(admin.post("/api/auth/revocations", "{\"sid\": \"" + sid + "\", \"reason\": \"test\"}").status()).isEqualTo(201);
        assertThat(victor.get("/api/me").status()).isEqualTo(401);
        Browser adminOnTwo = two.browser();
        adminOnTwo.cookies.putAll(admin.cookies);
        assertThat(adminOnTwo.get("/api/auth/revocations").json().path("revocations").get(0).path("sid").asText()).isEqualTo(sid);
    }

    @Test
    void aSessionFromOneReplicaIsValidOnTheOther_sharingTheSecret() {
        Browser browser = one.browser();
        browser.login("victor", TestGateway.PASSWORD);
        Browser elsewhere = two.browser();
        elsewhere.cookies.putAll(browser.cookies);
        assertThat(elsewhere.get("/api/me").json().path("sub").asText()).isEqualTo("victor");
    }

    @Test
    void anUnreachableRedisRefusesTheStart() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_REDIS_URL", "redis://127.0.0.1:9");
        // a start refusal (one line from the launcher, no stack trace), naming the server without credentials
        assertThatThrownBy(() -> TestGateway.start(env, clock)).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("redis://127.0.0.1:9 (OMCP_REDIS_URL) does not answer").hasMessageNotContaining("password");
    }

    @Test
    void aRedisThatAnswersButRefusesTheBlocklistsSetUp_refusesTheStartInOneLine_namingWhy() {
        // a read-only replica answers PING, then refuses the first write: that too is a start refusal, not a crash
        try (RedisServerProcess replica = RedisServerProcess.start(java.util.List.of("--replicaof", "127.0.0.1", "1"),
                java.util.Optional.empty())) {
            Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
            env.put("OMCP_REDIS_URL", replica.url());
            assertThatThrownBy(() -> TestGateway.start(env, clock)).isInstanceOf(StartRefusedException.class)
                    .hasMessageContaining("READONLY").hasMessageContaining("does not start without it");
        }
    }

    @Test
    void aReplicaWhoseClockIsMinutesOffTheServers_refusesTheStartInOneLine_namingTheFix() {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.put("OMCP_REDIS_URL", redis.url());
        ManualClock ahead = new ManualClock(Instant.now().plus(java.time.Duration.ofMinutes(10)));
        assertThatThrownBy(() -> TestGateway.start(env, ahead)).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("ahead of the clock of the shared store").hasMessageContaining("NTP");
    }
}
