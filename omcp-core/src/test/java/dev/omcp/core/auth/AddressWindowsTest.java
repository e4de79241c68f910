package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.auth.AddressWindows.Verdict;
import dev.omcp.core.auth.AddressWindows.WhenFull;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AddressWindowsTest {
    private static final Instant START = Instant.parse("2026-05-04T10:00:00Z");
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void anAddressAtItsLimit_isRefusedUntilItsWindowEnds_thenHasAWholeNewLimit() {
        AddressWindows windows = new AddressWindows(3, MINUTE, 100, WhenFull.REFUSE_NEW_ADDRESSES);
        for (int i = 0; i < 3; i++) {
            assertThat(windows.admit("192.0.2.1", START.plusSeconds(i * 10))).isInstanceOf(Verdict.Admitted.class);
        }

        assertThat(windows.admit("192.0.2.1", START.plusSeconds(45))).as("refused, not counted, told when its window ends")
                .isEqualTo(new Verdict.Refused(Duration.ofSeconds(15), false));
        assertThat(windows.admit("192.0.2.2", START.plusSeconds(45))).as("another address has its own window")
                .isInstanceOf(Verdict.Admitted.class);
        for (int i = 0; i < 3; i++) {
            assertThat(windows.admit("192.0.2.1", START.plusSeconds(60))).as("event %d of the next window", i + 1)
                    .isInstanceOf(Verdict.Admitted.class);
        }
        assertThat(windows.admit("192.0.2.1", START.plusSeconds(60))).isEqualTo(new Verdict.Refused(MINUTE, false));
    }

    @Test
    void aRetryLessThanASecondAway_isSaidAsOneSecond_soAClientDoesNotRetryAtOnce() {
        AddressWindows windows = new AddressWindows(1, MINUTE, 100, WhenFull.REFUSE_NEW_ADDRESSES);
        windows.admit("192.0.2.1", START);

        assertThat(windows.admit("192.0.2.1", START.plusMillis(59_700))).isEqualTo(new Verdict.Refused(Duration.ofSeconds(1), false));
    }

    @Test
    void check_countsNothing_andRefusesOnlyAnAddressAtItsLimit() {
        AddressWindows windows = new AddressWindows(2, MINUTE, 100, WhenFull.ADMIT_NEW_ADDRESSES_UNCOUNTED);
        for (int i = 0; i < 10; i++) {
            assertThat(windows.check("192.0.2.1", START)).isInstanceOf(Verdict.Admitted.class);
        }
        assertThat(windows.size()).as("checks add no address").isZero();

        windows.admit("192.0.2.1", START);
        assertThat(windows.check("192.0.2.1", START.plusSeconds(1))).isInstanceOf(Verdict.Admitted.class);
        windows.admit("192.0.2.1", START.plusSeconds(20));
        assertThat(windows.check("192.0.2.1", START.plusSeconds(30))).isEqualTo(new Verdict.Refused(Duration.ofSeconds(30), false));
        assertThat(windows.check("192.0.2.1", START.plusSeconds(60))).as("the window freed").isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void aFullTable_thatRefusesNewAddresses_refusesThemUntilTheOldestWindowEnds() {
        AddressWindows windows = new AddressWindows(5, MINUTE, 3, WhenFull.REFUSE_NEW_ADDRESSES);
        windows.admit("192.0.2.1", START);
        windows.admit("192.0.2.2", START.plusSeconds(10));
        windows.admit("192.0.2.3", START.plusSeconds(20));

        assertThat(windows.admit("198.51.100.7", START.plusSeconds(30))).isEqualTo(new Verdict.Refused(Duration.ofSeconds(30), true));
        assertThat(windows.admit("192.0.2.2", START.plusSeconds(30))).as("a counted address goes on").isInstanceOf(Verdict.Admitted.class);
        assertThat(windows.size()).isEqualTo(3);

        assertThat(windows.admit("198.51.100.7", START.plusSeconds(61))).as("the oldest window ended and made room")
                .isInstanceOf(Verdict.Admitted.class);
        assertThat(windows.size()).isEqualTo(3);
    }

    @Test
    void aFullTable_thatAdmitsNewAddressesUncounted_neitherGrowsNorRefusesThem_andStillLimitsThoseItHolds() {
        AddressWindows windows = new AddressWindows(2, MINUTE, 3, WhenFull.ADMIT_NEW_ADDRESSES_UNCOUNTED);
        for (int i = 1; i <= 3; i++) {
            windows.admit("192.0.2." + i, START);
        }

        for (int i = 0; i < 1000; i++) {
            // a spray: a fresh /64 each time
            assertThat(windows.admit("2001:db8:" + Integer.toHexString(i) + "::1", START.plusSeconds(5)))
                    .isInstanceOf(Verdict.Uncounted.class);
        }
        assertThat(windows.size()).as("memory stays fixed").isEqualTo(3);
        windows.admit("192.0.2.1", START.plusSeconds(6));
        assertThat(windows.admit("192.0.2.1", START.plusSeconds(7))).isEqualTo(new Verdict.Refused(Duration.ofSeconds(53), false));

        assertThat(windows.admit("2001:db8:ffff::1", START.plusSeconds(60))).as("ended windows make room")
                .isInstanceOf(Verdict.Admitted.class);
        assertThat(windows.size()).isEqualTo(1);
    }

    @Test
    void endedWindows_areDroppedAsEventsGoOn_wellBeforeTheTableIsFull() {
        AddressWindows windows = new AddressWindows(5, MINUTE, 1_000_000, WhenFull.REFUSE_NEW_ADDRESSES);
        for (int i = 0; i < 500; i++) {
            windows.admit("10.0." + (i / 256) + "." + (i % 256), START);
        }
        assertThat(windows.size()).isEqualTo(500);

        for (int i = 500; i < AddressWindows.PRUNE_EVERY; i++) {
            windows.admit("192.0.2.9", START.plusSeconds(61));
        }

        assertThat(windows.size()).as("idle addresses evicted, the live one kept").isEqualTo(1);
    }

    @Test
    void everyAddressOfOneIpv6Slash64_isOneEntry() {
        AddressWindows windows = new AddressWindows(2, MINUTE, 10, WhenFull.REFUSE_NEW_ADDRESSES);
        windows.admit("2001:db8:aa:bb::1", START);
        windows.admit("2001:db8:aa:bb:ffff::2", START);

        assertThat(windows.admit("[2001:DB8:AA:BB::3]", START)).isInstanceOf(Verdict.Refused.class);
        assertThat(windows.size()).isEqualTo(1);
    }

    @Test
    void aLimitWindowOrTableThatCannotWork_isRefusedAtConstruction_namingTheValue() {
        assertThatThrownBy(() -> new AddressWindows(0, MINUTE, 10, WhenFull.REFUSE_NEW_ADDRESSES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 event per window, got 0");
        assertThatThrownBy(() -> new AddressWindows(1, Duration.ZERO, 10, WhenFull.REFUSE_NEW_ADDRESSES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window must be positive, got PT0S");
        assertThatThrownBy(() -> new AddressWindows(1, MINUTE, 0, WhenFull.REFUSE_NEW_ADDRESSES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 address, got 0");
    }
}
