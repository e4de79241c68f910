package dev.omcp.adapters.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.TestClock;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ClockAgreementTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private final TestClock replica = new TestClock(T0);
    private final ClockAgreement agreement = new ClockAgreement(replica, () -> T0, "redis://127.0.0.1:6390");

    @Test
    void aClockWithinTheLimit_passesEitherWay() {
        replica.set(T0.plus(RedisRevocationStore.MAX_CLOCK_OFFSET));
        assertThatCode(agreement::check).doesNotThrowAnyException();
        replica.set(T0.minus(RedisRevocationStore.MAX_CLOCK_OFFSET));
        assertThatCode(agreement::check).doesNotThrowAnyException();
    }

    @Test
    void aClockFurtherOff_isRefused_namingHowFarWhichWayTheStoreAndTheFix() {
        replica.set(T0.plus(Duration.ofMinutes(7).plusSeconds(12)));
        assertThatThrownBy(agreement::check).isInstanceOf(SharedStateUnavailableException.class)
                .hasMessageContaining("clock is 7 min 12 s ahead of the clock of the shared store redis://127.0.0.1:6390")
                .hasMessageContaining("more than the 30 s a replica may be").hasMessageContaining("(NTP)");
        replica.set(T0.minus(Duration.ofHours(2)));
        assertThatThrownBy(agreement::check).hasMessageContaining("clock is 2 h behind the clock");
    }

    @Test
    void afterARefusal_readsMeasureAgainAtOnce_soAFixedClockServesRightAway() {
        replica.set(T0.plus(Duration.ofMinutes(7)));
        assertThatThrownBy(agreement::check).isInstanceOf(SharedStateUnavailableException.class);
        assertThatThrownBy(agreement::checkIfDue).as("the last measurement found it off")
                .isInstanceOf(SharedStateUnavailableException.class);

        replica.set(T0);

        assertThatCode(agreement::checkIfDue).doesNotThrowAnyException();
    }

    @Test
    void readsGoByTheLastMeasurementUntilItIsDue() {
        agreement.check();
        replica.set(T0.plus(Duration.ofMinutes(7)));

        assertThatCode(agreement::checkIfDue).as("measured less than 30 s ago").doesNotThrowAnyException();
        assertThatThrownBy(agreement::check).as("an add measures each time").isInstanceOf(SharedStateUnavailableException.class);
    }

    @Test
    void aSlowRoundTrip_doesNotMakeAnAgreeingClockLookOff() {
        // the store reads its clock (T0) as the request arrives and its answer takes 40 s to come back: this replica's
        // clock agrees with the store's, it is only read 40 s later
        ClockAgreement slow = new ClockAgreement(replica, () -> {
            replica.advance(Duration.ofSeconds(40));
            return T0;
        }, "redis://127.0.0.1:6390");

        assertThatCode(slow::check).doesNotThrowAnyException();
    }

    @Test
    void spansLeaveOutZeroParts() {
        assertThat(ClockAgreement.span(60_000)).isEqualTo("1 min");
        assertThat(ClockAgreement.span(59_999)).isEqualTo("59 s");
        assertThat(ClockAgreement.span(3_723_000)).isEqualTo("1 h 2 min 3 s");
        assertThat(ClockAgreement.span(3_601_000)).isEqualTo("1 h 1 s");
        assertThat(ClockAgreement.span(0)).isEqualTo("0 s");
    }
}
