package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LoginAttemptsPerAddressTest {
    private final Instant start = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void theTwentyFirstAttemptOfAMinute_isRefusedUntilTheWindowEnds() {
        // spec 8: 20 logins per minute per IP (fixed)
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress();
        for (int i = 0; i < 20; i++) {
            assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(i))).isEmpty();
        }
        assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(20))).contains(Duration.ofSeconds(40));
        assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(60))).isEmpty();
    }

    @Test
    void sprayedAddresses_cannotGrowTheTableBeyondItsBound_newOnesAreRefusedUntilWindowsEnd() {
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress(20, 100);
        for (int i = 0; i < 100; i++) {
            assertThat(attempts.tryAttempt("2001:db8::" + Integer.toHexString(i), start)).isEmpty();
        }
        assertThat(attempts.tryAttempt("2001:db8::ffff", start.plusSeconds(2))).as("fails closed").contains(Duration.ofMinutes(1));
        assertThat(attempts.size()).isEqualTo(100);
        assertThat(attempts.tryAttempt("2001:db8::1", start.plusSeconds(2))).as("a known address keeps its window").isEmpty();
        assertThat(attempts.tryAttempt("2001:db8::ffff", start.plusSeconds(61))).as("ended windows make room").isEmpty();
        assertThat(attempts.size()).isEqualTo(1);
    }
}
