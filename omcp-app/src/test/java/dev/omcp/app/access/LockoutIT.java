package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 3.3 (account lockout), 5.2 rule 3 and 7.4 through HTTP, with a manual clock. */
class LockoutIT {
    private static final String CSRF = "csrf-token-of-the-test-browser-0123456789";

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private TestGateway gateway;

    private TestGateway start(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(TestGateway.basicMode(dir));
        env.putAll(extra);
        gateway = TestGateway.start(env, clock);
        return gateway;
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static String rawLogin(String username, String password) {
        String body = "{\"username\":\"" + username + "\",\"password\":\"" + password + "\"}";
        return "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nCookie: omcp-csrf=" + CSRF
                + "\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body;
    }

    @Test
    void unlocked_to_locked_atTheFifthFailure_429WithRetryAfter_thenUnlockedWhenTheLockElapses_thenDoubled() {
        start(Map.of());
        Browser browser = gateway.browser();
        for (int i = 0; i < 4; i++) {
            assertThat(browser.login("alice", "wrong").status()).isEqualTo(401);
        }
        Browser.Reply fifth = browser.login("alice", "wrong");
        assertThat(fifth.status()).isEqualTo(429);
        assertThat(fifth.header("Retry-After")).isEqualTo("60");
        assertThat(fifth.json().path("code").asText()).isEqualTo("OMCP_LOGIN_LOCKED");
        assertThat(fifth.json().path("retryAfterSeconds").asInt()).isEqualTo(60);
        // locked: even the right password is refused
        clock.advance(Duration.ofSeconds(59));
        Browser.Reply stillLocked = browser.login("alice", TestGateway.PASSWORD);
        assertThat(stillLocked.status()).isEqualTo(429);
        assertThat(stillLocked.header("Retry-After")).isEqualTo("1");
        // locked -> unlocked by time
        clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 4; i++) {
            assertThat(browser.login("alice", "wrong").status()).isEqualTo(401);
        }
        // the next lock of the streak lasts twice as long
        assertThat(browser.login("alice", "wrong").header("Retry-After")).isEqualTo("120");
    }

    @Test
    void aSuccessfulLoginClearsTheStreak() {
        start(Map.of());
        Browser browser = gateway.browser();
        for (int i = 0; i < 4; i++) {
            browser.login("alice", "wrong");
        }
        assertThat(browser.login("alice", TestGateway.PASSWORD).status()).isEqualTo(200);
        for (int i = 0; i < 4; i++) {
            assertThat(browser.login("alice", "wrong").status()).isEqualTo(401);
        }
    }

    @Test
    void lockoutSettingsApply_andLockoutCanBeDisabled() {
        start(Map.of("OMCP_AUTH_LOCKOUT_MAX_FAILURES", "2", "OMCP_AUTH_LOCKOUT_BASE", "30", "OMCP_AUTH_LOCKOUT_MAX", "45"));
        Browser browser = gateway.browser();
        browser.login("alice", "wrong");
        assertThat(browser.login("alice", "wrong").header("Retry-After")).isEqualTo("30");
        clock.advance(Duration.ofSeconds(30));
        browser.login("alice", "wrong");
        assertThat(browser.login("alice", "wrong").header("Retry-After")).isEqualTo("45");
        gateway.close();
        gateway = null;
        start(Map.of("OMCP_AUTH_LOCKOUT_DISABLED", "true"));
        Browser unlocked = gateway.browser();
        for (int i = 0; i < 8; i++) {
            assertThat(unlocked.login("olivia", "wrong").status()).isEqualTo(401);
        }
        assertThat(unlocked.login("olivia", TestGateway.PASSWORD).status()).isEqualTo(200);
    }

    @Test
    void aLockedExistingUserAndAnUnknownUserGetByteIdenticalResponses_apartFromDate() {
        start(Map.of());
        for (int i = 0; i < 5; i++) {
            Browser.raw(gateway.port(), rawLogin("alice", "wrong"));
            Browser.raw(gateway.port(), rawLogin("ghost", "wrong"));
        }
        String existing = Browser.raw(gateway.port(), rawLogin("alice", "wrong"));
        String unknown = Browser.raw(gateway.port(), rawLogin("ghost", "wrong"));
        assertThat(existing).startsWith("HTTP/1.1 429");
        assertThat(withoutDate(existing)).isEqualTo(withoutDate(unknown));
    }

    private static String withoutDate(String response) {
        return response.replaceAll("(?im)^Date: [^\r\n]*\r\n", "");
    }

    @Test
    void aLockedLoginAnswersFarFasterThanAPasswordVerification_theLockIsCheckedFirst() {
        start(Map.of());
        List<Long> verifying = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            verifying.add(timed(() -> gateway.browser().login("sam", "wrong")));
        }
        gateway.browser().login("sam", "wrong");
        List<Long> locked = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            locked.add(timed(() -> assertThat(gateway.browser().login("sam", TestGateway.PASSWORD).status()).isEqualTo(429)));
        }
        long verify = median(verifying);
        long lockedMedian = median(locked);
        System.out.printf("login timing: wrong password (scrypt N=32768) median %d us, locked median %d us%n", verify / 1000,
                lockedMedian / 1000);
        assertThat(lockedMedian * 4).as("a locked answer computes no hash").isLessThan(verify);
    }

    private static long timed(Runnable action) {
        long start = System.nanoTime();
        action.run();
        return System.nanoTime() - start;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    @Test
    void everyRefusedAttemptIsAudited_status429WhenLocked_anUnknownUsernameOnlyInThe429s() {
        start(Map.of());
        Browser browser = gateway.browser();
        for (int i = 0; i < 6; i++) {
            browser.login("mallory", "guess" + i);
        }
        List<AuditEvent> events = gateway.audit.events();
        assertThat(events).hasSize(6).allSatisfy(event -> {
            assertThat(event.resource()).isEqualTo("auth");
            assertThat(event.action()).isEqualTo("login");
        });
        assertThat(events).extracting(AuditEvent::status).containsExactly(401, 401, 401, 401, 429, 429);
        // mallory is no user: a 401 records a placeholder; spec 3.3 makes the username the actor of the lock's 429
        assertThat(events).extracting(AuditEvent::actor)
                .containsExactly("unknown-user", "unknown-user", "unknown-user", "unknown-user", "mallory", "mallory");
    }

    @Test
    void twentyLoginsPerMinutePerAddress_the21stIs429_addressesComeFromTrustedProxies() {
        // spec 5.2 rule 3, 7.4 row 3, 8: 20 per minute per IP (fixed)
        start(Map.of("OMCP_TRUST_PROXY", "loopback"));
        Browser first = gateway.browser();
        first.headers.put("X-Forwarded-For", "203.0.113.7");
        for (int i = 0; i < 20; i++) {
            assertThat(first.login("user" + i, "wrong").status()).isEqualTo(401);
        }
        Browser.Reply limited = first.login("alice", TestGateway.PASSWORD);
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.json().path("code").asText()).isEqualTo("OMCP_LOGIN_RATE_LIMIT");
        assertThat(limited.header("Retry-After")).isEqualTo("60");
        Browser other = gateway.browser();
        other.headers.put("X-Forwarded-For", "203.0.113.8");
        assertThat(other.login("alice", TestGateway.PASSWORD).status()).isEqualTo(200);
        clock.advance(Duration.ofMinutes(1));
        assertThat(first.login("alice", TestGateway.PASSWORD).status()).isEqualTo(200);
        assertThat(gateway.audit.events()).last().extracting(AuditEvent::ip).isEqualTo("203.0.113.7");
    }

    @Test
    void withoutTrustedProxies_forwardedForIsIgnored_soItCannotDodgeTheLimit() {
        start(Map.of());
        Browser browser = gateway.browser();
        for (int i = 0; i < 20; i++) {
            browser.headers.put("X-Forwarded-For", "198.51.100." + i);
            browser.login("user" + i, "wrong");
        }
        browser.headers.put("X-Forwarded-For", "198.51.100.99");
        assertThat(browser.login("alice", TestGateway.PASSWORD).status()).isEqualTo(429);
        assertThat(gateway.audit.events()).allSatisfy(event -> assertThat(event.ip()).isEqualTo("127.0.0.1"));
    }
}
