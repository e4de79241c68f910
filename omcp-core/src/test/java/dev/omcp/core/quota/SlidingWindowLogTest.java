package dev.omcp.core.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.ports.ratelimit.RateLimit;
import org.junit.jupiter.api.Test;

/** The log's memory stays bounded: by the limit, and by the window's milliseconds when the limit is disabled. */
class SlidingWindowLogTest {

    @Test
    void aLimitedLog_neverHoldsMoreEntriesThanItsLimit() {
        SlidingWindowLog log = new SlidingWindowLog(RateLimit.of(20));
        for (long t = 0; t < 1_000; t++) {
            log.admit(t);
        }
        assertThat(log.count(999)).isEqualTo(20);
        assertThat(log.capacity()).isLessThanOrEqualTo(20);
    }

    @Test
    void aDisabledLog_mergesAdmissionsOfOneMillisecond_andNeverHoldsMoreThanTheWindowsMilliseconds() {
        SlidingWindowLog log = new SlidingWindowLog(RateLimit.disabled());
        for (int i = 0; i < 10_000; i++) {
            assertThat(log.admit(5)).isInstanceOf(RateDecision.Unlimited.class);
        }
        assertThat(log.count(5)).isEqualTo(10_000);
        assertThat(log.capacity()).as("10,000 requests of one millisecond are one entry").isLessThanOrEqualTo(8);
        for (long t = 0; t < 150_000; t++) {
            log.admit(1_000 + t);
        }
        assertThat(log.count(150_999)).isEqualTo(RateLimit.WINDOW_MS);
        assertThat(log.capacity()).isLessThanOrEqualTo((int) RateLimit.WINDOW_MS);
    }

    @Test
    void theRing_shrinksOnceItsAdmissionsLeave() {
        SlidingWindowLog log = new SlidingWindowLog(RateLimit.of(10_000));
        for (long t = 0; t < 5_000; t++) {
            log.admit(t);
        }
        int grown = log.capacity();
        assertThat(grown).isGreaterThanOrEqualTo(5_000);
        for (long t = 200_000; t < 200_010; t++) {
            log.admit(t);
        }
        assertThat(log.count(200_010)).isEqualTo(10);
        assertThat(log.capacity()).isLessThan(grown);
    }
}
