package dev.omcp.adapters.http.rdap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.time.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RegistryPausesTest {
    private static final URI ARIN = URI.create("https://rdap.arin.net/registry/ip/198.51.100.7");
    private static final URI RIPE = URI.create("https://rdap.db.ripe.net/ip/2001:db8::1");
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final RegistryPauses pauses = new RegistryPauses(clock);

    @Test
    void retryAfterAsAnHttpDate_pausesUntilThatTime() {
        assertThat(pauses.pause(ARIN, Optional.of("Sun, 01 Mar 2026 10:02:00 GMT"), RegistryPauses.DEFAULT_PAUSE))
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aHugeRetryAfter_isCutTo15Minutes_andAnUnreadableOneGivesTheFallback() {
        assertThat(pauses.pause(ARIN, Optional.of("999999999"), RegistryPauses.DEFAULT_PAUSE)).isEqualTo(RegistryPauses.MAX_PAUSE);
        assertThat(pauses.pause(ARIN, Optional.of("soon, please"), RegistryPauses.DEFAULT_PAUSE)).isEqualTo(Duration.ofSeconds(10));
        assertThat(pauses.pause(ARIN, Optional.of("-5"), RegistryPauses.DEFAULT_PAUSE)).isEqualTo(Duration.ofSeconds(10));
        // a date in the past still pauses for a second, so a registry is never hammered at once
        assertThat(pauses.pause(ARIN, Optional.of("Sun, 01 Mar 2026 09:00:00 GMT"), RegistryPauses.DEFAULT_PAUSE)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aPauseHoldsForItsRegistryOnly_andEnds() {
        pauses.pause(ARIN, Optional.of("60"), RegistryPauses.DEFAULT_PAUSE);

        assertThat(pauses.remaining(URI.create("https://RDAP.arin.net:443/other"))).contains(Duration.ofSeconds(60));
        assertThat(pauses.remaining(RIPE)).isEmpty();
        clock.advance(Duration.ofSeconds(60));
        assertThat(pauses.remaining(ARIN)).isEmpty();
    }

    @Test
    void manyRegistriesPaused_keepOnlyTheLatest64() {
        for (int i = 0; i < 100; i++) {
            pauses.pause(URI.create("https://registry-" + i + ".example/ip/192.0.2.1"), Optional.of("600"), RegistryPauses.DEFAULT_PAUSE);
        }

        assertThat(pauses.remaining(URI.create("https://registry-0.example/"))).isEmpty();
        assertThat(pauses.remaining(URI.create("https://registry-99.example/"))).isPresent();
    }
}
