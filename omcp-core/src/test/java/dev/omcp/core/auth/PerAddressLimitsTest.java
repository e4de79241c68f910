package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.ratelimit.AddressLimits.Verdict;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class PerAddressLimitsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-05-04T10:00:00Z"));

    @Test
    void theDefaults_are600ApiRequestsAnd30FailedCredentialsAMinute() {
        // spec 8 "IP-level limit of other endpoints": a limit exists; its values are the gateway's own (docs/access-control.md)
        assertThat(PerAddressLimits.API_REQUESTS_PER_MINUTE).isEqualTo(600);
        assertThat(PerAddressLimits.CREDENTIAL_FAILURES_PER_MINUTE).isEqualTo(30);
        assertThat(PerAddressLimits.WINDOW).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void thirtyFailedCredentials_refuseTheAddressBeforeItsNextCredentialIsChecked_untilTheWindowEnds() {
        PerAddressLimits limits = new PerAddressLimits(OptionalInt.empty(), OptionalInt.of(30), clock);
        for (int i = 0; i < 30; i++) {
            assertThat(limits.admitCredential("192.0.2.1")).as("check %d", i + 1).isInstanceOf(Verdict.Admitted.class);
            assertThat(limits.credentialFailed("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
            clock.advance(Duration.ofSeconds(1));
        }

        assertThat(limits.admitCredential("192.0.2.1")).isEqualTo(new Verdict.Refused(Duration.ofSeconds(30), 30, Duration.ofMinutes(1)));
        assertThat(limits.admitCredential("198.51.100.1")).as("another address").isInstanceOf(Verdict.Admitted.class);
        clock.advance(Duration.ofSeconds(30));
        assertThat(limits.admitCredential("192.0.2.1")).as("the window freed").isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void checkingCredentials_countsNothing_onlyFailuresCount() {
        PerAddressLimits limits = new PerAddressLimits(OptionalInt.empty(), OptionalInt.of(2), clock);
        for (int i = 0; i < 100; i++) {
            assertThat(limits.admitCredential("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
        }
        limits.credentialFailed("192.0.2.1");
        assertThat(limits.admitCredential("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
        limits.credentialFailed("192.0.2.1");
        assertThat(limits.admitCredential("192.0.2.1")).isInstanceOf(Verdict.Refused.class);
    }

    @Test
    void apiRequests_overTheLimitAreRefused_andDoNotTouchTheFailureCount() {
        PerAddressLimits limits = new PerAddressLimits(OptionalInt.of(3), OptionalInt.of(1), clock);
        for (int i = 0; i < 3; i++) {
            assertThat(limits.admitApiRequest("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
        }
        clock.advance(Duration.ofMillis(100));

        assertThat(limits.admitApiRequest("192.0.2.1")).isEqualTo(new Verdict.Refused(Duration.ofMillis(59_900), 3, Duration.ofMinutes(1)))
                .extracting(refused -> ((Verdict.Refused) refused).retryAfterSeconds()).isEqualTo(60L);
        assertThat(limits.admitCredential("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void aDisabledLimit_admitsEverything() {
        PerAddressLimits limits = new PerAddressLimits(OptionalInt.empty(), OptionalInt.empty(), clock);
        for (int i = 0; i < 10_000; i++) {
            assertThat(limits.admitApiRequest("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
            assertThat(limits.credentialFailed("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
        }
        assertThat(limits.admitCredential("192.0.2.1")).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void aFullTable_admitsANewAddressUncounted_sayingHowManyItHolds_andKeepsLimitingThoseItHolds() {
        PerAddressLimits limits = new PerAddressLimits(OptionalInt.of(1), OptionalInt.of(1), 2, clock);
        limits.credentialFailed("192.0.2.1");
        limits.credentialFailed("192.0.2.2");

        assertThat(limits.credentialFailed("2001:db8:1::1")).isEqualTo(new Verdict.Uncounted(2));
        assertThat(limits.admitCredential("2001:db8:1::1")).as("never refused for the table").isInstanceOf(Verdict.Admitted.class);
        assertThat(limits.admitCredential("192.0.2.1")).isInstanceOf(Verdict.Refused.class);

        limits.admitApiRequest("192.0.2.1");
        limits.admitApiRequest("192.0.2.2");
        assertThat(limits.admitApiRequest("192.0.2.3")).isEqualTo(new Verdict.Uncounted(2));
    }
}
