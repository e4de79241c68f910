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
        assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(20)))
                .contains(new LoginAttemptsPerAddress.Refusal(Duration.ofSeconds(40), false));
        assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(60))).isEmpty();
    }

    @Test
    void theMinuteIsFixed_notSliding_whenItEndsAWholeNewTwentyMayTryAtOnce() {
        // spec 8: 20 per minute (fixed): a sliding minute would still hold the attempts of seconds 1-19 at second 60
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress();
        for (int i = 0; i < 20; i++) {
            assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(i))).isEmpty();
        }
        for (int i = 0; i < 20; i++) {
            assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(60))).as("attempt %d of the next minute", i + 1).isEmpty();
        }
        assertThat(attempts.tryAttempt("192.0.2.1", start.plusSeconds(60)))
                .contains(new LoginAttemptsPerAddress.Refusal(Duration.ofSeconds(60), false));
    }

    @Test
    void sprayedAddresses_cannotGrowTheTableBeyondItsBound_newOnesAreRefusedUntilWindowsEnd() {
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress(20, 100);
        for (int i = 0; i < 100; i++) {
            // a /64 each: addresses within one /64 are one client (see below)
            assertThat(attempts.tryAttempt("2001:db8:0:" + Integer.toHexString(i) + "::1", start)).isEmpty();
        }
        assertThat(attempts.tryAttempt("2001:db8:0:ffff::1", start.plusSeconds(2))).as("fails closed, saying why and until when")
                .contains(new LoginAttemptsPerAddress.Refusal(Duration.ofSeconds(58), true));
        assertThat(attempts.size()).isEqualTo(100);
        assertThat(attempts.tryAttempt("2001:db8:0:1::1", start.plusSeconds(2))).as("a known address keeps its window").isEmpty();
        assertThat(attempts.tryAttempt("2001:db8:0:ffff::1", start.plusSeconds(61))).as("ended windows make room").isEmpty();
        assertThat(attempts.size()).isEqualTo(1);
    }

    @Test
    void anAddressOverItsLimit_whileTheTableIsFull_isRefusedForItsLimit_notForTheTable() {
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress(2, 3);
        for (int i = 0; i < 3; i++) {
            assertThat(attempts.tryAttempt("192.0.2." + i, start)).isEmpty();
        }
        assertThat(attempts.tryAttempt("192.0.2.0", start)).isEmpty();

        assertThat(attempts.tryAttempt("192.0.2.0", start.plusSeconds(10)))
                .as("a counted address is never refused for the table").contains(new LoginAttemptsPerAddress.Refusal(Duration.ofSeconds(50), false));
        assertThat(attempts.tryAttempt("192.0.2.9", start.plusSeconds(10))).map(LoginAttemptsPerAddress.Refusal::tableFull).contains(true);
        assertThat(attempts.capacity()).isEqualTo(3);
    }

    @Test
    void everyAddressOfOneIpv6Slash64_sharesOneCounter_soRotatingAddressesDoesNotEscapeTheLimit() {
        // spec 8: 20 logins per minute per IP, an IPv6 client counted by its /64 (docs/access-control.md)
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress();
        for (int i = 0; i < 20; i++) {
            assertThat(attempts.tryAttempt("2001:db8:aa:bb:" + Integer.toHexString(i) + "::" + Integer.toHexString(i * 7 + 1),
                    start.plusSeconds(i))).isEmpty();
        }

        assertThat(attempts.tryAttempt("2001:db8:aa:bb:ffff:ffff:ffff:fffe", start.plusSeconds(20)))
                .contains(new LoginAttemptsPerAddress.Refusal(Duration.ofSeconds(40), false));
        assertThat(attempts.tryAttempt("[2001:DB8:AA:BB::1]", start.plusSeconds(20))).as("any notation of the /64")
                .contains(new LoginAttemptsPerAddress.Refusal(Duration.ofSeconds(40), false));
        assertThat(attempts.tryAttempt("2001:db8:aa:bc::1", start.plusSeconds(20))).as("the next /64 is another client").isEmpty();
        assertThat(attempts.size()).isEqualTo(2);
    }

    @Test
    void addressesSprayedFromOneSlash64_takeOneEntry_soTheyCannotFillTheTableForEveryoneElse() {
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress(20, 100);
        for (int i = 0; i < 1000; i++) {
            attempts.tryAttempt("2001:db8:aa:bb:" + Integer.toHexString(i) + "::1", start);
        }

        assertThat(attempts.size()).isEqualTo(1);
        assertThat(attempts.tryAttempt("198.51.100.9", start.plusSeconds(1))).as("another client still gets in").isEmpty();
    }

    @Test
    void anIpv4MappedIpv6Address_isCountedAsItsIpv4Address() {
        LoginAttemptsPerAddress attempts = new LoginAttemptsPerAddress(2, 100);
        assertThat(attempts.tryAttempt("192.0.2.1", start)).isEmpty();
        assertThat(attempts.tryAttempt("::ffff:192.0.2.1", start)).isEmpty();

        assertThat(attempts.tryAttempt("::ffff:c000:201", start)).map(LoginAttemptsPerAddress.Refusal::tableFull).contains(false);
        assertThat(attempts.tryAttempt("192.0.2.2", start)).as("neighbouring IPv4 addresses are other clients").isEmpty();
    }
}
