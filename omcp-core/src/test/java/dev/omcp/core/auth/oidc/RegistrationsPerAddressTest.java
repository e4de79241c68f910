package dev.omcp.core.auth.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RegistrationsPerAddressTest {
    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    private final RegistrationsPerAddress counter = new RegistrationsPerAddress(2, Duration.ofHours(1), 3);

    @Test
    void aFullTableRefusesNewAddresses_untilTheOldestWindowEnds() {
        assertThat(counter.tryAdmit("a", START)).isEmpty();
        assertThat(counter.tryAdmit("b", START.plusSeconds(600))).isEmpty();
        assertThat(counter.tryAdmit("c", START.plusSeconds(1200))).isEmpty();

        for (int i = 0; i < 50; i++) {
            assertThat(counter.tryAdmit("sprayed-" + i, START.plusSeconds(1800 + i))).isPresent();
        }
        assertThat(counter.size()).isEqualTo(3);
        // the table was scanned when it filled: the oldest window ("a") ends at START + 1 h
        assertThat(counter.tryAdmit("d", START.plusSeconds(1900))).contains(Duration.ofSeconds(3600 - 1900));

        assertThat(counter.tryAdmit("d", START.plusSeconds(3600))).isEmpty();
        assertThat(counter.size()).isEqualTo(3);
    }

    @Test
    void anAddressOverItsLimit_isToldWhenItsOwnWindowEnds() {
        assertThat(counter.tryAdmit("a", START)).isEmpty();
        assertThat(counter.tryAdmit("a", START.plusSeconds(10))).isEmpty();
        assertThat(counter.tryAdmit("a", START.plusSeconds(20))).contains(Duration.ofSeconds(3580));
        assertThat(counter.tryAdmit("a", START.plusSeconds(3600))).isEmpty();
    }
}
