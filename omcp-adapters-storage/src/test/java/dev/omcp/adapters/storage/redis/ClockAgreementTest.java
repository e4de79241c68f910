package dev.omcp.adapters.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ClockAgreementTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private final AtomicReference<Instant> replica = new AtomicReference<>(T0);
    private final Clock replicaClock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return replica.get();
        }
    };
    private final ClockAgreement agreement = new ClockAgreement(replicaClock, () -> T0, "redis://127.0.0.1:6390");

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
        java.util.concurrent.atomic.AtomicBoolean answered = new java.util.concurrent.atomic.AtomicBoolean();
        Clock agreeing = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return answered.get() ? T0.plusSeconds(40) : T0;
            }
        };
        ClockAgreement slow = new ClockAgreement(agreeing, () -> {
            answered.set(true);
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
